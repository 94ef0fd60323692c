import type { SessionPrincipal } from '../../access/principal';
import { hashPassword, verifyPassword } from '../../auth/password';
import type { Context } from '../../context';
import type { Db, Tx } from '../../db/client';
import { AppError, validationError } from '../../errors';
import { parseInput } from '../../validation';
import { changePasswordInput } from '../staff/input';

/*
 * The signed-in staff member's own account (README "Dashboard sessions"): their password and their
 * other sessions. Only a session has an account to change; a key is refused.
 */

function requireOwnSession(ctx: Context, what: string): SessionPrincipal {
  if (ctx.principal?.kind === 'session') return ctx.principal;
  if (ctx.principal)
    throw new AppError('FORBIDDEN', `Only a signed-in staff member can ${what}; an API key has no account`);
  throw new AppError('UNAUTHENTICATED', 'This operation needs a dashboard session; sign in first');
}

/** Ends every live session of the member but `keep`; how many it ended. */
async function endOtherSessions(tx: Tx | Db, principal: SessionPrincipal, now: Date): Promise<number> {
  const { count } = await tx.session.updateMany({
    where: { staffUserId: principal.staffUserId, revokedAt: null, id: { not: principal.sessionId } },
    data: { revokedAt: now },
  });
  return count;
}

function audit(tx: Tx, ctx: Context, principal: SessionPrincipal, action: string, signedOut: number) {
  return tx.auditEntry.create({
    data: {
      storeId: principal.storeId,
      actorType: 'staff',
      actorId: principal.staffUserId,
      action,
      targetType: 'staff_user',
      targetId: principal.staffUserId,
      ip: ctx.clientAddress,
      details: { sessionsRevoked: signedOut },
      createdAt: ctx.now(),
    },
  });
}

/**
 * Changes the signed-in member's password. The current one is checked under the sign-in throttle (a
 * stolen session cannot guess it); a wrong one is a field error on `currentPassword`. Every other
 * session of the member ends; this one stays.
 */
export async function changePassword(ctx: Context, input: unknown): Promise<{ signedOutSessions: number }> {
  const principal = requireOwnSession(ctx, 'change their password');
  const fields = parseInput(changePasswordInput, input, 'input');
  const staff = await ctx.prisma.staffUser.findUniqueOrThrow({
    where: { id: principal.staffUserId },
    select: { email: true, passwordHash: true },
  });
  const ip = ctx.clientAddress;
  await ctx.loginThrottle.attempt(staff.email, ip);
  const matches =
    staff.passwordHash !== null && (await verifyPassword(fields.currentPassword, staff.passwordHash));
  if (!matches)
    throw validationError([{ path: 'input.currentPassword', message: 'is not your current password' }]);
  await ctx.loginThrottle.succeed(staff.email, ip);
  const passwordHash = await hashPassword(fields.newPassword);
  return ctx.prisma.$transaction(async (tx) => {
    await tx.staffUser.update({
      where: { id: principal.staffUserId },
      data: { passwordHash, updatedAt: ctx.now() },
    });
    const signedOutSessions = await endOtherSessions(tx, principal, ctx.now());
    await audit(tx, ctx, principal, 'staff.password_changed', signedOutSessions);
    return { signedOutSessions };
  });
}

/** Signs the member out everywhere else (other browsers, devices); this session stays. */
export async function signOutOtherSessions(ctx: Context): Promise<{ signedOutSessions: number }> {
  const principal = requireOwnSession(ctx, 'sign out their other sessions');
  return ctx.prisma.$transaction(async (tx) => {
    const signedOutSessions = await endOtherSessions(tx, principal, ctx.now());
    await audit(tx, ctx, principal, 'session.signed_out_others', signedOutSessions);
    return { signedOutSessions };
  });
}
