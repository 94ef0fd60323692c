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
];
