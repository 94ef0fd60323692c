import { rightsOfRole } from '../../access/credential-rights';
import { hashInvitationToken, INVITATION_TOKEN_PATTERN } from '../../auth/invitation-token';
import { hashPassword } from '../../auth/password';
import { openSession, storeSuspended } from '../../auth/sessions';
import { type Context, storeIdOf } from '../../context';
import type { Db, Tx } from '../../db/client';
import { AppError, stateConflict } from '../../errors';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { recordAudit } from '../audit/service';
import { acceptInvitationInput } from './input';
import { inviteMember } from './invitation-queue';
import {
  aMember,
  assertMayEmpower,
  lockMember,
  removeMember,
  type StaffMember,
  staffSelect,
} from './service';

/*
 * Invitations a person accepts (README "Staff invitations"). A member invited without a password has
 * one; its link's token exists only in the e-mail (the job mints it, the row keeps its sha256), works
 * until expiresAt, once. Accepting sets the password, deletes the invitation and signs the person in.
 */

/** Unknown, expired, used, revoked or malformed: one answer, which says nothing about which. */
export const invalidInvitation = () =>
  new AppError(
    'INVITATION_INVALID',
    'This invitation link is invalid, has expired or was already used; ask the store for a new invitation',
  );

const notPending = (member: StaffMember) =>
  new AppError(
    'INVITATION_NOT_PENDING',
    `${member.email} has no invitation to answer: they already accepted or have a password`,
  );

async function hasPassword(tx: Tx, id: string): Promise<boolean> {
  const row = await tx.staffUser.findUniqueOrThrow({ where: { id }, select: { passwordHash: true } });
  return row.passwordHash !== null;
}

/**
 * A new link by e-mail for a member who has not set a password yet (the earlier link dies now). Asks
 * what inviting the member's role asks (the credential rule).
 */
export async function resendStaffInvitation(ctx: Context, id: string) {
  const storeId = storeIdOf(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const member = await lockMember(tx, storeId, id);
    assertMayEmpower(ctx, [{ what: `invite ${aMember(member.role)}`, rights: [rightsOfRole(member.role)] }]);
    if (await hasPassword(tx, id)) throw notPending(member);
    if (!member.isActive)
      throw stateConflict('STAFF_STATE_CONFLICT', 'The staff member is inactive; reactivate them first', {
        isActive: false,
      });
    const invitation = await inviteMember(tx, member, ctx.principal, ctx.now());
    await recordAudit(tx, ctx, {
      action: 'staff.invitation_resent',
      targetType: 'staff_user',
      targetId: id,
      details: { email: member.email, role: member.role, invitationId: invitation.id },
    });
    return member;
  });
}

/**
 * Withdraws an invitation: its link dies and the member, who never signed in, is removed (a member
 * without a password and without an invitation could never do anything). Only a member still invited.
 */
export function revokeStaffInvitation(ctx: Context, id: string) {
  return removeMember(ctx, id, 'staff.invitation_revoked', async (tx, member) => {
    assertMayEmpower(ctx, [{ what: `invite ${aMember(member.role)}`, rights: [rightsOfRole(member.role)] }]);
    const invitation = await tx.staffInvitation.findUnique({
      where: { staffUserId: id },
      select: { id: true },
    });
    if (!invitation || (await hasPassword(tx, id))) throw notPending(member);
  });
}

/** The invitation a token opens now, with its member and store; null for anything else. */
async function liveInvitation(db: Db | Tx, token: string, now: Date) {
  if (!INVITATION_TOKEN_PATTERN.test(token)) return null;
  const invitation = await db.staffInvitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    select: {
      id: true,
      expiresAt: true,
      staffUser: {
        select: {
          ...staffSelect,
          passwordHash: true,
          store: {
            select: { id: true, name: true, plan: true, status: true, currency: true, timezone: true },
          },
        },
      },
    },
  });
  const member = invitation?.staffUser;
  if (!invitation || !member || invitation.expiresAt.getTime() <= now.getTime()) return null;
  if (!member.isActive || member.passwordHash !== null) return null;
  return { ...invitation, staffUser: member };
}

/**
 * Runs `look` under the sign-in throttle (src/auth/login-throttle.ts): each attempt is counted against
 * the client address (and the token) before the lookup; an invalid token keeps its count, a valid one
 * gives the point back, an error that was not the token's fault too. Guessing is refused (429) long
 * before it could matter (a token has 256 bits).
 */
async function throttled<T>(ctx: Context, token: string, look: () => Promise<T>): Promise<T> {
  const key = `invitation:${hashInvitationToken(token)}`;
  const ip = ctx.clientAddress;
  await ctx.loginThrottle.attempt(key, ip);
  const result = await look().catch(async (error: unknown) => {
    if (!(error instanceof AppError && error.code === 'INVITATION_INVALID'))
      await ctx.loginThrottle.giveBack(key, ip);
    throw error;
  });
  await ctx.loginThrottle.succeed(key, ip);
  return result;
}

/** What the accept page greets the invitee with: the store, their e-mail, name and role, until when. */
export function staffInvitationByToken(ctx: Context, token: string) {
  return throttled(ctx, token, async () => {
    const invitation = await liveInvitation(ctx.prisma, token, ctx.now());
    if (!invitation) throw invalidInvitation();
    const member = invitation.staffUser;
    return {
      storeName: member.store.name,
      email: member.email,
      name: member.name,
      role: member.role,
      expiresAt: invitation.expiresAt,
    };
  });
}

/**
 * Accepts an invitation: the password is set (and the name, when given), the invitation deleted — in
 * one transaction that locks it, so a link works once however many use it at the same moment — and
 * the person is signed in, as `login` does (the session cookie, the token once).
 */
export function acceptStaffInvitation(ctx: Context, input: unknown) {
  const raw = (input ?? {}) as { token?: unknown };
  return throttled(ctx, typeof raw.token === 'string' ? raw.token : '', async () => {
    const fields = parseInput(acceptInvitationInput, input, 'input');
    const found = await liveInvitation(ctx.prisma, fields.token, ctx.now());
    if (!found) throw invalidInvitation();
    if (found.staffUser.store.status === 'SUSPENDED') throw storeSuspended();
    const passwordHash = await hashPassword(fields.password);
    const member = await writeStore(ctx, found.staffUser.storeId, async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM "StaffInvitation" WHERE id = ${found.id} FOR UPDATE`;
      // Re-read under the lock: a concurrent acceptance, a resend or a revocation may have come first.
      const current = locked.length > 0 ? await liveInvitation(tx, fields.token, ctx.now()) : null;
      if (!current) throw invalidInvitation();
      await tx.staffInvitation.delete({ where: { id: current.id } });
      const updated = await tx.staffUser.update({
        where: { id: current.staffUser.id },
        data: { passwordHash, ...(fields.name ? { name: fields.name } : {}), updatedAt: ctx.now() },
        select: staffSelect,
      });
      await tx.auditEntry.create({
        data: {
          storeId: updated.storeId,
          actorType: 'staff',
          actorId: updated.id,
          action: 'staff.invitation_accepted',
          targetType: 'staff_user',
          targetId: updated.id,
          ip: ctx.clientAddress,
          details: { email: updated.email, role: updated.role },
          createdAt: ctx.now(),
        },
      });
      return updated;
    });
    const result = await openSession(
      ctx.prisma,
      { ...member, store: found.staffUser.store },
      { ip: ctx.clientAddress, userAgent: ctx.userAgent, now: ctx.now() },
    );
    ctx.sessionCookie.set(result.token, result.expiresAt);
    return result;
  });
}
