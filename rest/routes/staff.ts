import { itemRoute, listRoute, writeRoute } from '../resource-routes';

const tag = 'Staff';

export const staffRoutes = [
  listRoute({ tag, path: '/staff', field: 'staffMembers', noun: 'staff', name: 'ListStaff' }),
  itemRoute({ tag, path: '/staff/{id}', field: 'staffMember', noun: 'a staff member' }),
  writeRoute({ tag, method: 'POST', path: '/staff', field: 'inviteStaff', status: 201 }),
  writeRoute({ tag, method: 'PATCH', path: '/staff/{id}', field: 'updateStaff' }),
  writeRoute({ tag, method: 'DELETE', path: '/staff/{id}', field: 'removeStaff' }),
  writeRoute({ tag, method: 'POST', path: '/staff/{id}/invitation/resend', field: 'resendStaffInvitation' }),
  writeRoute({ tag, method: 'DELETE', path: '/staff/{id}/invitation', field: 'revokeStaffInvitation' }),
];
