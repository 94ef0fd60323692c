import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '../../prisma/generated/client/client';

/** /healthz: the process is up. /readyz: PostgreSQL and (when configured) Redis answer. */
export function healthRouter(deps: { prisma: PrismaClient; redis: Redis | null }): Router {
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
    const ready = postgres === 'ok' && redis !== 'unreachable';
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not ready', checks: { postgres, redis } });
  });
  return router;
}
