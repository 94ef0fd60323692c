import { PAGINATION_SELECTION } from '../../src/modules/pagination/schema';
import { route } from '../route';

export const staffRoutes = [
  route({
    method: 'GET',
    path: '/staff',
    tag: 'Staff',
    summary: 'List staff (filter with q on name or e-mail, and role; sortBy createdAt, name or email)',
    operation: `query ListStaff($page: Int, $limit: Int, $q: String, $role: StaffRole, $sortBy: StaffSortField, $sortDirection: SortDirection) {
      staffMembers(page: $page, limit: $limit, q: $q, role: $role, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...StaffMemberFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'staffMembers' },
  }),
  route({
    method: 'GET',
    path: '/staff/{id}',
    tag: 'Staff',
    summary: 'Get a staff member',
    operation: `query GetStaffMember($id: ID!) { staffMember(id: $id) { ...StaffMemberFields } }`,
    result: { kind: 'item', field: 'staffMember' },
  }),
  route({
    method: 'POST',
    path: '/staff',
    tag: 'Staff',
    summary: 'Invite a staff member (without a password they cannot sign in until one is set)',
    operation: `mutation InviteStaff($input: InviteStaffInput!) { inviteStaff(input: $input) { ...StaffMemberFields } }`,
    body: 'input',
    result: { kind: 'item', field: 'inviteStaff' },
    status: 201,
  }),
  route({
    method: 'PATCH',
    path: '/staff/{id}',
    tag: 'Staff',
    summary: 'Update a staff member (name, role, isActive, password); the last active owner stays an owner',
    operation: `mutation UpdateStaff($id: ID!, $input: UpdateStaffInput!) {
      updateStaff(id: $id, input: $input) { ...StaffMemberFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateStaff' },
  }),
  route({
    method: 'DELETE',
    path: '/staff/{id}',
    tag: 'Staff',
    summary: 'Remove a staff member and end their sessions; the last active owner cannot be removed',
    operation: 'mutation RemoveStaff($id: ID!) { removeStaff(id: $id) { id deleted } }',
    result: { kind: 'empty', field: 'removeStaff' },
  }),
];
