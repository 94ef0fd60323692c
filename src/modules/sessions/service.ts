import type { SessionPrincipal } from '../../access/principal';
import { login, logout } from '../../auth/sessions';
import type { Context } from '../../context';
import { AppError, notFound } from '../../errors';
import { parseInput } from '../../validation';
import { type LoginInput, loginInput } from './input';

/** logout and session act on the caller's own dashboard session; an API key has none. */
export function requireSession(ctx: Context): SessionPrincipal {
  if (ctx.principal?.kind !== 'session') {
    throw new AppError('UNAUTHENTICATED', 'This operation needs a dashboard session; sign in first');
  }
  return ctx.principal;
}

/**
 * Sign-in through any front door: the attempt is counted before the password is checked (a blocked
 * account or address is refused even with the right password, and parallel guesses cannot outrun
 * the count); a 401 keeps its count, a success clears the account's, anything else gives it back.
 */
export async function signIn(ctx: Context, input: LoginInput) {
  parseInput(loginInput, input, 'input'); // the shape only: the checks below use what was sent
  const ip = ctx.clientAddress;
  await ctx.loginThrottle.attempt(input.email, ip);
  const result = await login(ctx.prisma, input, { ip, userAgent: ctx.userAgent, now: ctx.now() }).catch(
    async (error: unknown) => {
      if (!(error instanceof AppError && error.code === 'UNAUTHENTICATED'))
        await ctx.loginThrottle.giveBack(input.email, ip);
      throw error;
    },
  );
  await ctx.loginThrottle.succeed(input.email, ip);
  ctx.sessionCookie.set(result.token, result.expiresAt);
  return result;
}

export async function signOut(ctx: Context): Promise<boolean> {
  const principal = requireSession(ctx);
  await logout(ctx.prisma, principal.sessionId, ctx.now(), { ip: ctx.clientAddress });
  ctx.sessionCookie.clear();
  return true;
}

/** Who is signed in, to which store, until when. */
export async function currentSession(ctx: Context) {
  const principal = requireSession(ctx);
  const session = await ctx.prisma.session.findUnique({
    where: { id: principal.sessionId },
    select: {
      expiresAt: true,
      staffUser: { select: { id: true, email: true, name: true, role: true } },
      store: { select: { id: true, name: true, plan: true, currency: true, timezone: true } },
    },
  });
  if (!session) throw notFound('Session');
  return { staff: session.staffUser, store: session.store, expiresAt: session.expiresAt };
}
