import { Router } from 'express';
import type { PrismaClient } from '../../prisma/generated/client/client';
import type { RedisClient } from '../redis';

/**
 * /healthz: the process is up. /readyz: whether to send it traffic — 503 while PostgreSQL does not
 * answer (every request would be a 503); 200 `degraded` while only Redis does not, since requests go
 * on with per-process limits (a readiness check failing on Redis would take every process out at once).
 */
export function healthRouter(deps: { prisma: PrismaClient; redis: RedisClient | null }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    // Redis first: its 100 ms command timeout must not race a cold Prisma client's first query.
    const redis = deps.redis
      ? await deps.redis.ping().then(
          () => 'ok',
          () => 'unreachable',
        )
      : 'not configured';
    const postgres = await deps.prisma.$queryRaw`SELECT 1`.then(
      () => 'ok',
      () => 'unreachable',
    );
    const status = postgres !== 'ok' ? 'not ready' : redis === 'unreachable' ? 'degraded' : 'ready';
    res.status(status === 'not ready' ? 503 : 200).json({ status, checks: { postgres, redis } });
  });
  return router;
}
