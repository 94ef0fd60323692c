import type { StaffRole } from '../../../prisma/generated/client/enums';
import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
import { LoginResultRef, StaffRoleEnum } from '../sessions/schema';
import { acceptInvitationInput, inviteStaffInput, staffUpdateInput } from './input';
import {
  acceptStaffInvitation,
  resendStaffInvitation,
  revokeStaffInvitation,
  staffInvitationByToken,
} from './invitations';
import { inviteStaff, removeStaff, staffRows, staffSelect, staffSortFields, updateStaff } from './service';

/** A staff user of the store as the API shows it: never the password hash. */
const InvitationStatusEnum = builder.enumType('StaffInvitationStatus', {
  values: ['PENDING', 'EXPIRED'] as const,
  description: 'PENDING: the link works (or its e-mail is on its way); EXPIRED: resend it',
});

interface InvitationShape {
  status: 'PENDING' | 'EXPIRED';
  sentAt: Date | null;
  expiresAt: Date;
}

const invitationStatus = (expiresAt: Date, now: Date): InvitationShape['status'] =>
  expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'PENDING';

const StaffInvitationRef = builder.objectRef<InvitationShape>('StaffInvitation').implement({
  description: "A member's invitation to set their password (never its token)",
  fields: (t) => ({
    status: t.field({ type: InvitationStatusEnum, resolve: (invitation) => invitation.status }),
    sentAt: t.expose('sentAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When its e-mail was sent; null while it is queued',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

export const StaffMemberRef = builder.prismaObject('StaffUser', {
  extensions: resourceFragment({ relations: { invitation: true } }),
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
    invitation: t.field({
      type: StaffInvitationRef,
      nullable: true,
      description:
        'The invitation of a member who has not set a password yet; null once accepted (or never invited)',
      select: { invitation: { select: { sentAt: true, expiresAt: true } } },
      resolve: (member, _args, ctx) =>
        member.invitation
          ? {
              sentAt: member.invitation.sentAt,
              expiresAt: member.invitation.expiresAt,
              status: invitationStatus(member.invitation.expiresAt, ctx.now()),
            }
          : null,
    }),
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

const AcceptStaffInvitationInput = inputTypeOf('AcceptStaffInvitationInput', acceptInvitationInput);

const InvitationGreetingRef = builder
  .objectRef<{ storeName: string; email: string; name: string; role: StaffRole; expiresAt: Date }>(
    'StaffInvitationGreeting',
  )
  .implement({
    description: 'What an invitation link opens, for its page to greet the invitee',
    fields: (t) => ({
      storeName: t.exposeString('storeName'),
      email: t.exposeString('email'),
      name: t.exposeString('name'),
      role: t.expose('role', { type: StaffRoleEnum }),
      expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    }),
  });

builder.queryField('staffInvitation', (t) =>
  t.field({
    type: InvitationGreetingRef,
    description:
      'The invitation a link token opens (store, e-mail, role, expiry); 410 INVITATION_INVALID otherwise. Public, throttled like sign-in',
    extensions: { public: true },
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => staffInvitationByToken(ctx, token),
  }),
);

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
  resendStaffInvitation: t.field({
    type: StaffMemberRef,
    description:
      'E-mails a member who has not set a password a new invitation link (72 hours); the earlier link stops working',
    authScopes: requireScope('STAFF', 'WRITE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => resendStaffInvitation(ctx, id),
  }),
  revokeStaffInvitation: t.field({
    type: RemovedStaffRef,
    description:
      'Withdraws an invitation: its link stops working and the invited member, who never signed in, is removed',
    authScopes: requireScope('STAFF', 'WRITE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => revokeStaffInvitation(ctx, id),
  }),
  acceptStaffInvitation: t.field({
    type: LoginResultRef,
    description:
      "Accepts an invitation with the link's token: sets the password and signs in (as login does); throttled like sign-in",
    extensions: { public: true },
    args: { input: t.arg({ type: AcceptStaffInvitationInput, required: true }) },
    resolve: (_root, { input }, ctx) => acceptStaffInvitation(ctx, input),
  }),
  removeStaff: t.field({
    type: RemovedStaffRef,
    description: 'Removes a staff member and ends their sessions; the last active OWNER cannot be removed',
    authScopes: requireScope('STAFF', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => removeStaff(ctx, id),
  }),
}));
