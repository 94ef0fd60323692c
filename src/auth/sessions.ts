import { createHash, randomBytes } from 'node:crypto';
import type { Plan, StaffRole } from '../../prisma/generated/client/enums';
import type { SessionPrincipal } from '../access/principal';
import { roleScopes } from '../access/roles';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { AddressFailures } from './address-failures';
import { SESSION_TOKEN_PREFIX } from './credentials';
import { verifyPassword } from './password';

/**
 * A dashboard session lasts 12 hours from sign-in, and ends sooner when unused for the idle time
 * (SESSION_IDLE_MINUTES); then the staff member signs in again.
 */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** `lastSeenAt` is written at most this often per session, not on every request: the idle time's precision. */
export const LAST_SEEN_INTERVAL_MS = 60 * 1000;
/** `tts_` + 64 lowercase hex: anything else is refused before any lookup. */
export const SESSION_TOKEN_PATTERN = /^tts_[0-9a-f]{64}$/;

export const generateSessionToken = (): string => `${SESSION_TOKEN_PREFIX}${randomBytes(32).toString('hex')}`;
/** Only this digest is stored (Session.tokenHash); the token itself is shown once, in the sign-in response. */
export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Verified instead of a real hash when the e-mail is unknown or the account has no password, so
 * that the answer takes as long as for an existing account (same scrypt parameters as password.ts).
 */
const DUMMY_PASSWORD_HASH =
  'scrypt$32768$8$1$kK8garHsQ_cQ08khrRRENg$V30puHj25OerDBRTibSf0cqauBWhCi_ILucE0B4bS8U';

const MAX_USER_AGENT = 512;
/** The accounts of one e-mail a sign-in tries, most recently used first. */
const MAX_ACCOUNTS_PER_EMAIL = 10;

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const invalidCredentials = () => new AppError('UNAUTHENTICATED', 'Invalid e-mail or password');
export const invalidSession = () =>
  new AppError('UNAUTHENTICATED', 'The session is invalid or has expired; sign in again');
export const storeSuspended = () => new AppError('STORE_SUSPENDED', 'The store is suspended');

export interface LoginMeta {
  ip?: string;
  userAgent?: string;
  now: Date;
}

export interface SessionStaff {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
}

export interface SessionStore {
  id: string;
  name: string;
  plan: Plan;
  currency: string;
  timezone: string;
}

export interface LoginResult {
  /** The bearer token (`tts_…`); shown this once, never stored in clear. */
  token: string;
  expiresAt: Date;
  session: SessionPrincipal;
  staff: SessionStaff;
  store: SessionStore;
}

type FailureReason = 'wrong_password' | 'no_password' | 'inactive' | 'store_suspended';

/**
 * Signs a staff member in with e-mail and password. One person may work for several stores, each
 * with an account of its own: the password picks the account (`storeId` narrows the choice); when
 * it opens several, the one signed in to most recently wins. An unknown e-mail, a wrong password,
 * an account without a password and an inactive account all give the same 401 (and take the same
 * time for one account); a failure of an existing account is written to its store's audit log.
 * Throttling is the caller's job (see login-throttle.ts and the sessions module).
 */
export async function login(
  prisma: Db,
  input: { email: string; password: string; storeId?: string | null },
  meta: LoginMeta,
): Promise<LoginResult> {
  const email = normalizeEmail(input.email);
  const accounts = email
    ? await prisma.staffUser.findMany({
        where: { email, ...(input.storeId ? { storeId: input.storeId } : {}) },
        include: {
          store: {
            select: { id: true, name: true, plan: true, status: true, currency: true, timezone: true },
          },
        },
        orderBy: [{ lastLoginAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'asc' }],
        take: MAX_ACCOUNTS_PER_EMAIL,
      })
    : [];
  if (accounts.length === 0) {
    await verifyPassword(input.password, DUMMY_PASSWORD_HASH);
    throw invalidCredentials();
  }
  const failures: Array<{ account: (typeof accounts)[number]; reason: FailureReason }> = [];
  let user: (typeof accounts)[number] | undefined;
  for (const account of accounts) {
    const passwordMatches = await verifyPassword(input.password, account.passwordHash ?? DUMMY_PASSWORD_HASH);
    const reason: FailureReason | null = !account.passwordHash
      ? 'no_password'
      : !passwordMatches
        ? 'wrong_password'
        : !account.isActive
          ? 'inactive'
          : account.store.status === 'SUSPENDED'
            ? 'store_suspended'
            : null;
    if (reason) failures.push({ account, reason });
    else {
      user = account;
      break;
    }
  }
  if (!user) {
    await prisma.auditEntry.createMany({
      data: failures.map(({ account, reason }) => ({
        storeId: account.storeId,
        actorType: 'staff',
        actorId: account.id,
        action: 'session.login_failed',
        targetType: 'staff_user',
        targetId: account.id,
        ip: meta.ip,
        details: { reason },
        createdAt: meta.now,
      })),
    });
    // Only someone who knows the password learns that the store is suspended.
    throw failures.some(({ reason }) => reason === 'store_suspended')
      ? storeSuspended()
      : invalidCredentials();
  }

  return openSession(prisma, user, meta);
}

/** The staff account a session is opened for, with its store. */
export interface SessionAccount extends SessionStaff {
  storeId: string;
  store: SessionStore;
}

/**
 * A new session for an account whose credential was just checked (a password at sign-in, an
 * invitation at its acceptance): the token (shown once; only its digest is stored), lastLoginAt and
 * the audit entry, in one transaction.
 */
export async function openSession(prisma: Db, user: SessionAccount, meta: LoginMeta): Promise<LoginResult> {
  const token = generateSessionToken();
  const expiresAt = new Date(meta.now.getTime() + SESSION_TTL_MS);
  const userAgent = meta.userAgent?.slice(0, MAX_USER_AGENT);
  const session = await prisma.$transaction(async (tx) => {
    const created = await tx.session.create({
      data: {
        tokenHash: hashSessionToken(token),
        staffUserId: user.id,
        storeId: user.storeId,
        ip: meta.ip,
        userAgent,
        expiresAt,
        lastSeenAt: meta.now,
        createdAt: meta.now,
      },
    });
    await tx.staffUser.update({ where: { id: user.id }, data: { lastLoginAt: meta.now } });
    await tx.auditEntry.create({
      data: {
        storeId: user.storeId,
        actorType: 'staff',
        actorId: user.id,
        action: 'session.login',
        targetType: 'session',
        targetId: created.id,
        ip: meta.ip,
        details: userAgent ? { userAgent } : {},
        createdAt: meta.now,
      },
    });
    return created;
  });

  return {
    token,
    expiresAt,
    session: {
      kind: 'session',
      sessionId: session.id,
      staffUserId: user.id,
      storeId: user.storeId,
      plan: user.store.plan,
      role: user.role,
      scopes: roleScopes(user.role),
    },
    staff: { id: user.id, email: user.email, name: user.name, role: user.role },
    store: {
      id: user.store.id,
      name: user.store.name,
      plan: user.store.plan,
      currency: user.store.currency,
      timezone: user.store.timezone,
    },
  };
}

/**
 * The principal of a presented session token. Missing, malformed, expired (at `expiresAt` exactly),
 * idle (no request recorded for `idleMs`: `lastSeenAt` that long ago, exactly included) and revoked
 * sessions, and sessions of a deactivated staff user, are 401 UNAUTHENTICATED; a suspended store is
 * 402 STORE_SUSPENDED. Role and plan are read fresh on every request. With `failures`, a token that
 * matches no session counts against the client address, and a blocked address is refused (429)
 * before the lookup.
 */
export async function authenticateSession(
  prisma: Db,
  token: string,
  now: Date,
  idleMs: number,
  failures?: { byAddress: AddressFailures; address: string | undefined },
): Promise<SessionPrincipal> {
  if (!SESSION_TOKEN_PATTERN.test(token)) throw invalidSession();
  failures?.byAddress.check(failures.address);
  const session = await prisma.session.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    select: {
      id: true,
      storeId: true,
      expiresAt: true,
      revokedAt: true,
      lastSeenAt: true,
      staffUser: { select: { id: true, isActive: true, role: true } },
      store: { select: { plan: true, status: true } },
    },
  });
  if (!session) {
    await failures?.byAddress.count(failures.address);
    throw invalidSession();
  }
  if (
    session.revokedAt ||
    now.getTime() >= session.expiresAt.getTime() ||
    now.getTime() - session.lastSeenAt.getTime() >= idleMs ||
    !session.staffUser.isActive
  ) {
    throw invalidSession();
  }
  if (session.store.status === 'SUSPENDED') throw storeSuspended();

  if (now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_INTERVAL_MS) {
    // Conditional, so that concurrent requests of one session write it once.
    await prisma.session.updateMany({
      where: { id: session.id, lastSeenAt: { lte: new Date(now.getTime() - LAST_SEEN_INTERVAL_MS) } },
      data: { lastSeenAt: now },
    });
  }
  return {
    kind: 'session',
    sessionId: session.id,
    staffUserId: session.staffUser.id,
    storeId: session.storeId,
    plan: session.store.plan,
    role: session.staffUser.role,
    scopes: roleScopes(session.staffUser.role),
  };
}

/** Ends a session (revokedAt = now) and records it; false when it was already ended or never existed. */
export async function logout(
  prisma: Db,
  sessionId: string,
  now: Date,
  meta: { ip?: string } = {},
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const session = await tx.session.findUnique({
      where: { id: sessionId },
      select: { id: true, storeId: true, staffUserId: true },
    });
    if (!session) return false;
    const { count } = await tx.session.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 0) return false;
    await tx.auditEntry.create({
      data: {
        storeId: session.storeId,
        actorType: 'staff',
        actorId: session.staffUserId,
        action: 'session.logout',
        targetType: 'session',
        targetId: session.id,
        ip: meta.ip,
        createdAt: now,
      },
    });
    return true;
  });
}
