import type { Prisma, StaffUser } from '../../../prisma/generated/client/client';
import type { StaffRole } from '../../../prisma/generated/client/enums';
import { assertHoldsRights, type Rights, rightsOfRole } from '../../access/credential-rights';
import { hashPassword } from '../../auth/password';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, notFound, stateConflict } from '../../errors';
import { storeRows } from '../../resources/store-resource/rows';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { recordAudit } from '../audit/service';
import { inviteStaffInput, staffUpdateInput } from './input';
import { inviteMember } from './invitation-queue';

export const staffSortFields = ['createdAt', 'name', 'email'] as const;
export type StaffSortField = (typeof staffSortFields)[number];

export interface StaffFilter {
  q?: string | null;
  role?: StaffRole | null;
}

/** Never the password hash: these are the only columns any staff read selects. */
export const staffSelect = {
  id: true,
  storeId: true,
  email: true,
  name: true,
  role: true,
  isActive: true,
  lastLoginAt: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.StaffUserSelect;

export type StaffMember = Omit<StaffUser, 'passwordHash'>;

function staffWhere(storeId: string, filter: StaffFilter): Prisma.StaffUserWhereInput {
  const q = filter.q?.trim();
  return {
    storeId,
    ...(filter.role ? { role: filter.role } : {}),
    ...(q
      ? {
          OR: [
            { name: { contains: q, mode: 'insensitive' } },
            { email: { contains: q, mode: 'insensitive' } },
          ],
        }
      : {}),
  };
}

/** The store's staff: a page, a Relay connection's rows and count, one by id. */
export const staffRows = storeRows<StaffUser, StaffFilter, StaffSortField>({
  name: 'Staff member',
  model: (ctx) => ctx.prisma.staffUser,
  where: staffWhere,
  defaultSort: 'createdAt',
});

const lastOwner = (what: string) =>
  new AppError(
    'LAST_OWNER',
    `The last active owner of the store cannot be ${what}; make another staff member who signs in (an accepted invitation) an active OWNER first`,
  );

/**
 * Locks every OWNER row of the store (FOR UPDATE) and returns them as they are now. Concurrent
 * changes that could drop an owner queue up here, so "is there another active owner?" and the change
 * itself happen without a window in between. READ COMMITTED re-checks the WHERE on rows that a
 * concurrent transaction changed, so an owner demoted meanwhile is no longer in the answer.
 */
function lockOwners(tx: Tx, storeId: string) {
  return tx.$queryRaw<Array<{ id: string; isActive: boolean; invited: boolean }>>`
    SELECT s.id, s."isActive",
           EXISTS (SELECT 1 FROM "StaffInvitation" i WHERE i."staffUserId" = s.id) AS invited
      FROM "StaffUser" s
     WHERE s."storeId" = ${storeId} AND s.role = 'OWNER'
     ORDER BY s.id FOR UPDATE OF s`;
}

/**
 * Throws 409 when no other active owner among the locked `owners` could run the store after the
 * change. An owner still invited (who has not accepted, so cannot sign in) does not count: stepping
 * down in favour of an invitation could leave a store nobody can manage. Returns the other active
 * owners (for re-pointing Store.ownerId).
 */
function assertNotLastOwner(
  owners: Array<{ id: string; isActive: boolean; invited: boolean }>,
  userId: string,
  what: string,
) {
  const others = owners.filter((owner) => owner.isActive && !owner.invited && owner.id !== userId);
  const target = owners.find((owner) => owner.id === userId);
  if (target?.isActive && others.length === 0) throw lastOwner(what);
  return others;
}

/** Store.ownerId names the primary owner; when that user stops being an active owner, another takes over. */
async function handOverPrimaryOwner(tx: Tx, storeId: string, userId: string, others: Array<{ id: string }>) {
  const next = others[0];
  if (!next) return;
  await tx.store.updateMany({ where: { id: storeId, ownerId: userId }, data: { ownerId: next.id } });
}

/**
 * The staff member as they are now, their row locked for the rest of the transaction: changes of one
 * member happen one after another, each judged on what the one before left.
 */
export async function lockMember(tx: Tx, storeId: string, id: string): Promise<StaffMember> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "StaffUser" WHERE id = ${id} AND "storeId" = ${storeId} FOR UPDATE`;
  if (locked.length === 0) throw notFound('Staff member');
  return tx.staffUser.findUniqueOrThrow({ where: { id }, select: staffSelect });
}

function revokeSessions(tx: Tx, staffUserId: string, now: Date) {
  return tx.session.updateMany({ where: { staffUserId, revokedAt: null }, data: { revokedAt: now } });
}

const conflictingEmail = (email: string) =>
  new AppError('CONFLICT', `This store already has a staff member with e-mail ${email}`, [
    { path: 'input.email', message: 'is already a staff member of this store' },
  ]);

/**
 * The credential rule for staff (src/access/credential-rights.ts): each change that could give a staff
 * member more asks that the caller hold every right of the role involved. Checked in order; the first
 * the caller fails names what it is refused.
 */
export function assertMayEmpower(
  ctx: Context,
  checks: ReadonlyArray<{ what: string; rights: Rights[] }>,
): void {
  for (const { what, rights } of checks) assertHoldsRights(ctx.principal, rights, what);
}

export const aMember = (role: StaffRole) => (role === 'STAFF' ? 'a STAFF member' : `an ${role}`);

/** What a change of a member asks of the caller: the rights of every role the member has or gets. */
function changeChecks(
  existing: StaffMember,
  fields: { role?: StaffRole; isActive?: boolean; password?: string | null },
): Array<{ what: string; rights: Rights[] }> {
  const role = fields.role ?? existing.role;
  const checks: Array<{ what: string; rights: Rights[] }> = [];
  // Changing the owner stays the owner's, whatever is changed.
  if (existing.role === 'OWNER') checks.push({ what: 'change an OWNER', rights: [rightsOfRole('OWNER')] });
  if (fields.role !== undefined && fields.role !== existing.role)
    checks.push({
      what: `make a staff member ${fields.role}`,
      rights: [rightsOfRole(existing.role), rightsOfRole(fields.role)],
    });
  if (fields.isActive === true && !existing.isActive)
    checks.push({ what: `reactivate ${aMember(role)}`, rights: [rightsOfRole(role)] });
  if (fields.password)
    checks.push({ what: `set the password of ${aMember(role)}`, rights: [rightsOfRole(role)] });
  return checks;
}

export async function inviteStaff(ctx: Context, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(inviteStaffInput, input, 'input');
  assertMayEmpower(ctx, [{ what: `invite ${aMember(fields.role)}`, rights: [rightsOfRole(fields.role)] }]);
  const passwordHash = fields.password ? await hashPassword(fields.password) : null;
  return writeStore(ctx, storeId, async (tx) => {
    // A clear message first; the unique index still settles a concurrent invite (409 via the classifier).
    const existing = await tx.staffUser.findUnique({
      where: { storeId_email: { storeId, email: fields.email } },
      select: { id: true },
    });
    if (existing) {
      throw conflictingEmail(fields.email);
    }
    const member = await tx.staffUser.create({
      data: {
        storeId,
        email: fields.email,
        name: fields.name,
        role: fields.role,
        passwordHash,
        createdAt: ctx.now(),
        updatedAt: ctx.now(),
      },
      select: staffSelect,
    });
    // Without a password the person is invited by e-mail to set one (README "Staff invitations").
    if (passwordHash === null) await inviteMember(tx, member, ctx.principal, ctx.now());
    await recordAudit(tx, ctx, {
      action: 'staff.invited',
      targetType: 'staff_user',
      targetId: member.id,
      details: { email: member.email, role: member.role, passwordSet: passwordHash !== null },
    });
    return member;
  });
}

export async function updateStaff(ctx: Context, id: string, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(staffUpdateInput, input, 'input');
  const passwordHash = fields.password ? await hashPassword(fields.password) : undefined;
  return writeStore(ctx, storeId, async (tx) => {
    const demoted = fields.role !== undefined && fields.role !== 'OWNER';
    const deactivated = fields.isActive === false;
    // Owners are locked before the target is read, so the check and the change see the same owners.
    const owners = demoted || deactivated ? await lockOwners(tx, storeId) : [];
    const existing = await lockMember(tx, storeId, id);
    assertMayEmpower(ctx, changeChecks(existing, fields));
    if (fields.isActive !== undefined && fields.isActive === existing.isActive) {
      const state = existing.isActive ? 'active' : 'inactive';
      throw stateConflict('STAFF_STATE_CONFLICT', `The staff member is already ${state}`, {
        isActive: existing.isActive,
      });
    }
    if (existing.role === 'OWNER' && (demoted || deactivated)) {
      const others = assertNotLastOwner(owners, id, deactivated ? 'deactivated' : 'demoted');
      await handOverPrimaryOwner(tx, storeId, id, others);
    }
    const member = await tx.staffUser.update({
      where: { id },
      data: {
        name: fields.name,
        role: fields.role,
        isActive: fields.isActive,
        passwordHash,
        updatedAt: ctx.now(),
      },
      select: staffSelect,
    });
    // A deactivated user is signed out; so is one whose password an administrator just replaced.
    const signOut = (existing.isActive && !member.isActive) || passwordHash !== undefined;
    const revoked = signOut ? (await revokeSessions(tx, id, ctx.now())).count : 0;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const field of ['name', 'role', 'isActive'] as const) {
      if (fields[field] !== undefined && existing[field] !== member[field])
        changes[field] = { from: existing[field], to: member[field] };
    }
    await recordAudit(tx, ctx, {
      action: 'staff.updated',
      targetType: 'staff_user',
      targetId: id,
      details: {
        changes: changes as Prisma.InputJsonObject,
        passwordChanged: passwordHash !== undefined,
        sessionsRevoked: revoked,
      },
    });
    return member;
  });
}

/** Removes the staff user; their sessions are revoked first (and go with the user). */
export const removeStaff = (ctx: Context, id: string) => removeMember(ctx, id, 'staff.removed');

/**
 * Removes a member with their sessions (and invitation), audited as `action`; `check` judges the
 * locked member first (a revoked invitation removes only a member still invited).
 */
export async function removeMember(
  ctx: Context,
  id: string,
  action: string,
  check?: (tx: Tx, member: StaffMember) => Promise<void>,
) {
  const storeId = storeIdOf(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const owners = await lockOwners(tx, storeId);
    const existing = await lockMember(tx, storeId, id);
    await check?.(tx, existing);
    if (existing.role === 'OWNER') {
      assertMayEmpower(ctx, [{ what: 'remove an OWNER', rights: [rightsOfRole('OWNER')] }]);
      const others = assertNotLastOwner(owners, id, 'removed');
      await handOverPrimaryOwner(tx, storeId, id, others);
    }
    const revoked = await revokeSessions(tx, id, ctx.now());
    await tx.staffUser.delete({ where: { id } });
    await recordAudit(tx, ctx, {
      action,
      targetType: 'staff_user',
      targetId: id,
      details: { email: existing.email, role: existing.role, sessionsRevoked: revoked.count },
    });
    return { id, deleted: true };
  });
}
