import type { Principal } from '../auth/principal';
import type { RequestServices } from '../context';
import type { AppError } from '../errors';
import { beginIdempotent, finishIdempotent, requestHash } from './store';

/** An HTTP answer before it is sent: what idempotency remembers and replays. */
export interface Reply {
  status: number;
  body: unknown;
  /** Set for errors, so they are sent (and logged) through the one error path. */
  error?: AppError;
}

/** Keys are remembered per API key or per signed-in staff user; without a principal there is no scope. */
export const idempotencyScope = (principal: Principal | null) =>
  principal?.kind === 'apiKey'
    ? `key:${principal.keyId}`
    : principal
      ? `staff:${principal.staffUserId}`
      : null;

/**
 * Runs `produce` once per Idempotency-Key of the caller: the first request runs and its answer is
 * remembered for 24 h; a repeat with the same request gets that answer again (Idempotent-Replayed:
 * true), one with another request 422, one while the first still runs 409. Callers without a
 * principal (signing in) are not deduplicated.
 */
export async function withIdempotency(
  services: RequestServices,
  call: { key: string; principal: Principal | null; request: unknown[] },
  produce: () => Promise<Reply>,
  markReplayed: (replayed: boolean) => void,
): Promise<Reply> {
  const scope = idempotencyScope(call.principal);
  if (!scope) return produce();
  const record = { scope, key: call.key, hash: requestHash(call.request), now: services.now() };
  const begun = await beginIdempotent(services.prisma, record);
  if (begun.kind === 'replay') {
    markReplayed(true);
    return { status: begun.status, body: begun.body ?? undefined };
  }
  markReplayed(false);
  let reply: Reply = { status: 500, body: undefined };
  try {
    reply = await produce();
    return reply;
  } finally {
    await finishIdempotent(services.prisma, {
      scope,
      key: call.key,
      status: reply.status,
      body: reply.body,
      now: services.now(),
    });
  }
}
