import { Plan, StaffRole } from '../../../prisma/generated/client/enums';
import { planFeatures } from '../../access/plans';
import { roleScopes } from '../../access/roles';
import { type ScopeObject, toScopeObjects } from '../../access/scopes';
import type { LoginResult, SessionStaff, SessionStore } from '../../auth/sessions';
import { builder } from '../../builder';
import { listSize, shownOnce } from '../../field-extensions';
import { inputTypeOf } from '../../resources/input-type';
import { changePasswordInput } from '../staff/input';
import { changePassword, signOutOtherSessions } from './account';
import { loginInput } from './input';
import { currentSession, signIn, signOut } from './service';

/*
 * Dashboard sessions (docs/design.md "Dashboard sessions"). These root fields declare no scope on purpose: they
 * act on the caller's own session, whatever its role. `login` needs no credential (extensions.public
 * lets a credential-less GraphQL request through to it); `logout` and `session` need a session.
 */

export const StaffRoleEnum = builder.enumType('StaffRole', { values: Object.values(StaffRole) });
export const PlanEnum = builder.enumType('Plan', { values: Object.values(Plan) });

const SessionStaffRef = builder.objectRef<SessionStaff>('SessionStaff').implement({
  description: 'The signed-in staff member',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    role: t.field({ type: StaffRoleEnum, resolve: (staff) => staff.role }),
  }),
});

const SessionStoreRef = builder.objectRef<SessionStore>('SessionStore').implement({
  description: 'The store the staff member belongs to',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    plan: t.field({ type: PlanEnum, resolve: (store) => store.plan }),
    currency: t.exposeString('currency', {
      description: 'ISO 4217; amounts of the store are in its minor units',
    }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone; analytics days are its days' }),
    apiAccess: t.boolean({
      description: 'Whether the plan includes API keys',
      resolve: (store) => planFeatures[store.plan].apiAccess,
    }),
    canAccessWebhooks: t.boolean({
      description: 'Whether the plan includes webhooks',
      resolve: (store) => planFeatures[store.plan].canAccessWebhooks,
    }),
  }),
});

export const LoginResultRef = builder.objectRef<LoginResult>('LoginResult').implement({
  description: 'A new dashboard session; the token is shown this once',
  fields: (t) => ({
    token: t.exposeString('token', {
      extensions: shownOnce,
      description:
        'Send as `Authorization: Bearer <token>` (or the session cookie, `__Host-tt_session` in production, `tt_session` elsewhere) until expiresAt',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    staff: t.field({ type: SessionStaffRef, resolve: (result) => result.staff }),
    store: t.field({ type: SessionStoreRef, resolve: (result) => result.store }),
  }),
});

type SessionInfo = { staff: SessionStaff; store: SessionStore; expiresAt: Date };

const RightRef = builder.objectRef<ScopeObject>('SessionRight').implement({
  description: 'A (resource, actions) pair the session holds, in the shape of a key scope',
  fields: (t) => ({
    resource: t.exposeString('resource'),
    actions: t.exposeStringList('actions'),
  }),
});

const SessionInfoRef = builder.objectRef<SessionInfo>('SessionInfo').implement({
  description: 'The current dashboard session',
  fields: (t) => ({
    staff: t.field({ type: SessionStaffRef, resolve: (info) => info.staff }),
    store: t.field({ type: SessionStoreRef, resolve: (info) => info.store }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    rights: t.field({
      type: [RightRef],
      description: 'What this session may do: the staff member\'s role\'s scopes (README "Authentication")',
      resolve: (info) => toScopeObjects([...roleScopes(info.staff.role)]),
      extensions: listSize(21),
    }),
  }),
});

const LoginInput = inputTypeOf('LoginInput', loginInput, { types: { storeId: 'ID' } });
const ChangePasswordInput = inputTypeOf('ChangePasswordInput', changePasswordInput);

const SignedOutRef = builder.objectRef<{ signedOutSessions: number }>('OtherSessionsSignedOut').implement({
  description: "What ended with the change: the staff member's other sessions",
  fields: (t) => ({
    signedOutSessions: t.exposeInt('signedOutSessions', { description: 'How many other sessions ended' }),
  }),
});

builder.mutationFields((t) => ({
  login: t.field({
    type: LoginResultRef,
    description: 'Signs a staff member in with e-mail and password; failed attempts are throttled',
    extensions: { public: true },
    args: { input: t.arg({ type: LoginInput, required: true }) },
    resolve: (_root, args, ctx) => signIn(ctx, args.input),
  }),
  changePassword: t.field({
    type: SignedOutRef,
    description:
      "Changes the signed-in staff member's own password (the current one is checked, throttled like sign-in); their other sessions end, this one stays",
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    // Its variables are passwords: no idempotency record holds them, not even as a digest.
    extensions: { neverRemembered: true },
    resolve: (_root, { input }, ctx) => changePassword(ctx, input),
  }),
  signOutOtherSessions: t.field({
    type: SignedOutRef,
    description: 'Ends every other session of the signed-in staff member (other browsers and devices)',
    resolve: (_root, _args, ctx) => signOutOtherSessions(ctx),
  }),
  logout: t.boolean({
    description: 'Ends the current dashboard session',
    resolve: (_root, _args, ctx) => signOut(ctx),
  }),
}));

builder.queryField('session', (t) =>
  t.field({
    type: SessionInfoRef,
    description: 'The current dashboard session: who, which store, until when',
    resolve: (_root, _args, ctx) => currentSession(ctx),
  }),
);
