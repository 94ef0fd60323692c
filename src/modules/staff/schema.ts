import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
import { StaffRoleEnum } from '../sessions/schema';
import { inviteStaffInput, staffUpdateInput } from './input';
import { inviteStaff, removeStaff, staffRows, staffSelect, staffSortFields, updateStaff } from './service';

/** A staff user of the store as the API shows it: never the password hash. */
export const StaffMemberRef = builder.prismaObject('StaffUser', {
  extensions: resourceFragment(),
  interfaces: [NodeRef],
  name: 'StaffMember',
  description: 'A staff user of the store (signs in to the dashboard with e-mail and password)',
  // Only these columns are ever loaded for the API, so the password hash is never even read.
  select: staffSelect,
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    role: t.expose('role', { type: StaffRoleEnum }),
    isActive: t.exposeBoolean('isActive'),
    lastLoginAt: t.expose('lastLoginAt', { type: 'DateTime', nullable: true }),
    ...timestamps(t),
  }),
});

storeQueries({
  ref: StaffMemberRef,
  fields: { list: 'staffMembers', item: 'staffMember' },
  scope: requireScope('STAFF', 'READ'),
  descriptions: {
    list: 'Staff of the store, a page at a time; `q` matches name or e-mail',
    connection: 'Staff as a Relay connection, for frontends',
  },
  sortFields: staffSortFields,
  sortEnumName: 'StaffSortField',
  filters: (arg) => ({ q: arg.string(), role: arg({ type: StaffRoleEnum }) }),
  rows: staffRows,
});

const InviteStaffInput = inputTypeOf('InviteStaffInput', inviteStaffInput, {
  types: { role: StaffRoleEnum },
});
const UpdateStaffInput = inputTypeOf('UpdateStaffInput', staffUpdateInput, {
  types: { role: StaffRoleEnum },
});

const RemovedStaffRef = builder.objectRef<{ id: string; deleted: boolean }>('RemovedStaffMember').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  inviteStaff: t.field({
    type: StaffMemberRef,
    description: 'Invite a staff member (without a password they cannot sign in until one is set)',
    authScopes: requireScope('STAFF', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: InviteStaffInput, required: true }) },
    resolve: (_root, { input }, ctx) => inviteStaff(ctx, input),
  }),
  updateStaff: t.field({
    description:
      'Update a staff member (name, role, isActive, password); the last active owner stays an owner',
    type: StaffMemberRef,
    authScopes: requireScope('STAFF', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateStaffInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) => updateStaff(ctx, id, input),
  }),
  removeStaff: t.field({
    type: RemovedStaffRef,
    description: 'Removes a staff member and ends their sessions; the last active OWNER cannot be removed',
    authScopes: requireScope('STAFF', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => removeStaff(ctx, id),
  }),
}));
