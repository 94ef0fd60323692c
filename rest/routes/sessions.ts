import { route } from '../route';

const tag = 'Sessions';
const sessionFields =
  'staff { id email name role } store { id name plan currency timezone apiAccess canAccessWebhooks } expiresAt';

export const sessionRoutes = [
  route({
    method: 'POST',
    path: '/auth/login',
    tag,
    summary: 'Sign a staff member in with e-mail and password; returns a session token (shown once)',
    operation: `mutation Login($input: LoginInput!) { login(input: $input) { token ${sessionFields} } }`,
    auth: 'none',
    body: 'input',
    result: { kind: 'item', field: 'login' },
  }),
  route({
    method: 'POST',
    path: '/auth/logout',
    tag,
    summary: 'End the current dashboard session',
    operation: 'mutation Logout { logout }',
    result: { kind: 'empty', field: 'logout' },
  }),
  route({
    method: 'GET',
    path: '/auth/session',
    tag,
    summary:
      "The current dashboard session: staff member, store (plan and what it includes), expiry and the role's rights",
    operation: `query CurrentSession { session { ${sessionFields} rights { resource actions } } }`,
    result: { kind: 'item', field: 'session' },
  }),
  route({
    method: 'POST',
    path: '/auth/password',
    tag,
    summary:
      "Change the signed-in staff member's own password (currentPassword, newPassword); their other sessions end, this one stays",
    operation: `mutation ChangePassword($input: ChangePasswordInput!) { changePassword(input: $input) { signedOutSessions } }`,
    body: 'input',
    result: { kind: 'item', field: 'changePassword' },
  }),
  route({
    method: 'POST',
    path: '/auth/sessions/sign-out-others',
    tag,
    summary: 'End every other session of the signed-in staff member; answers how many ended',
    operation: 'mutation SignOutOtherSessions { signOutOtherSessions { signedOutSessions } }',
    result: { kind: 'item', field: 'signOutOtherSessions' },
  }),
  route({
    method: 'GET',
    path: '/auth/invitation',
    tag,
    summary:
      'What a staff invitation link opens (store name, e-mail, name, role, expiry): `410 INVITATION_INVALID` when it is unknown, expired or used. Public, throttled like sign-in',
    operation: `query StaffInvitation($token: String!) {
      staffInvitation(token: $token) { storeName email name role expiresAt }
    }`,
    auth: 'none',
    result: { kind: 'item', field: 'staffInvitation' },
  }),
  route({
    method: 'POST',
    path: '/auth/accept-invite',
    tag,
    summary:
      "Accept a staff invitation with the link's token and a new password (optionally a name): signs in as /auth/login does. Public, throttled like sign-in",
    operation: `mutation AcceptStaffInvitation($input: AcceptStaffInvitationInput!) {
      acceptStaffInvitation(input: $input) { token ${sessionFields} }
    }`,
    auth: 'none',
    body: 'input',
    result: { kind: 'item', field: 'acceptStaffInvitation' },
  }),
];
