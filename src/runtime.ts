import type { Logger } from 'pino';
import type { PrismaClient } from '../prisma/generated/client/client';
import { createAdmission } from './admission/admission';
import { AddressFailures } from './auth/address-failures';
import { type Authenticate, createAuthenticator } from './auth/authenticate';
import { AuthInvalidation } from './auth/invalidation';
import { KeyVerifier } from './auth/key-verifier';
import { createLoginThrottle } from './auth/login-throttle';
import { type SessionCookiePolicy, sessionCookiePolicy } from './auth/session-cookie';
import type { Config } from './config';
import type { RequestServices } from './context';
import { type CostBudget, createCostBudget } from './cost/budget';
import { rateLimitHeaders } from './ratelimit/headers';
import { DataVersions, versionKeyPrefix } from './read-cache/data-version';
import { createReadCache, type ReadCache } from './read-cache/read-cache';
import type { RedisClient } from './redis';
import { REDIS_KEY_PREFIX } from './redis';
import { createReadRouting, type ReadRouting } from './replica/read-routing';
import { StorePositions } from './replica/store-positions';
import { createRequestLog, type RequestLog } from './request-log/recorder';
import { createUsageMeter, type UsageMeter } from './usage/meter';
import { webhookServicesFrom } from './webhook-delivery/services';

/** The long-lived pieces an API process shares between requests. */
export interface Runtime {
  services: RequestServices;
  authenticate: Authenticate;
  keys: KeyVerifier;
  invalidation: AuthInvalidation;
  usage: UsageMeter;
  readCache: ReadCache;
  /** Each key's and staff member's query-cost budget; null when COST_BUDGET_POINTS is 0. */
  costBudget: CostBudget | null;
  /** The session cookie's name and Secure rule, from NODE_ENV. */
  sessionCookie: SessionCookiePolicy;
  /** Where queries read (DATABASE_REPLICA_URL); null: every read on the primary. */
  readRouting: ReadRouting | null;
  /** The request log's batched writer (README "Request log"); stop() writes what it still holds. */
  requestLog: RequestLog;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createRuntime(options: {
  config: Config;
  prisma: PrismaClient;
  redis: RedisClient | null;
  logger: Logger;
  now?: () => Date;
  /** Tests isolate their Redis keys with a prefix of their own. */
  redisKeyPrefix?: string;
  /** The read replica's client (DATABASE_REPLICA_URL), with REPLICA_MAX_LAG_MS. */
  replica?: { prisma: PrismaClient; maxLagMs: number; pollMs?: number } | null;
}): Runtime {
  const { config, prisma, redis, logger } = options;
  const now = options.now ?? (() => new Date());
  const prefix = options.redisKeyPrefix ?? REDIS_KEY_PREFIX;
  const failures = new AddressFailures({
    redis,
    keyPrefix: `${prefix}authfail:`,
    limit: config.authFailures,
  });
  const keys = new KeyVerifier(prisma, { ttlMs: config.authCacheTtlMs, maxEntries: 10_000, failures });
  const invalidation = new AuthInvalidation(redis, (target) => keys.invalidate(target), logger);
  const usage = createUsageMeter({ redis, logger, keyPrefix: `${prefix}usage:` });
  const versions = redis
    ? new DataVersions(redis, {
        keyPrefix: versionKeyPrefix(prefix),
        timeoutMs: config.redisTimeoutMs,
        logger,
      })
    : null;
  const readCache = createReadCache({ versions, ...config.readCache, logger });
  const dataVersions = readCache.enabled ? versions : null;
  const admission = createAdmission({
    redis,
    rateLimit: config.rateLimit,
    sessionRateLimit: config.sessionRateLimit,
    usage,
    dataVersions,
    logger,
    keyPrefix: `${prefix}rl:`,
    redisTimeoutMs: config.redisTimeoutMs,
  });

  const readRouting = options.replica
    ? createReadRouting({
        primary: prisma,
        replica: options.replica.prisma,
        positions: new StorePositions(redis, { keyPrefix: `${prefix}walpos:`, logger }),
        maxLagMs: options.replica.maxLagMs,
        pollMs: options.replica.pollMs,
        logger,
      })
    : null;
  const sessionCookie = sessionCookiePolicy(config);
  const loginThrottle = createLoginThrottle({ redis, keyPrefix: `${prefix}login:` });
  const services: RequestServices = {
    prisma,
    now,
    invalidateAuth: (target) => invalidation.publish(target),
    loginThrottle,
    webhooks: webhookServicesFrom(config),
    // The write's WAL position is recorded before the version is replaced: whoever reads the new
    // version also finds the position its read must wait for on the replica.
    storeChanged: readRouting
      ? async (storeId) => {
          await readRouting.written(storeId);
          await readCache.storeChanged(storeId);
        }
      : (storeId) => readCache.storeChanged(storeId),
    sessionCookiePolicy: sessionCookie,
  };
  const costBudget = createCostBudget({
    redis,
    ...config.costBudget,
    keyPrefix: `${prefix}cost:`,
    logger,
    redisTimeoutMs: config.redisTimeoutMs,
  });
  const authenticate = createAuthenticator({
    prisma,
    now,
    keys,
    failures,
    admission,
    rateLimitHeaders: (decision, kind) =>
      rateLimitHeaders(
        decision,
        (kind === 'session' ? config.sessionRateLimit : config.rateLimit).windowSeconds,
      ),
    dataVersions,
    sessionCookie,
    sessionIdleMs: config.sessionIdleMs,
    trustedOrigins: config.corsOrigins,
    costBudget,
  });
  const requestLog = createRequestLog(prisma, { ...config.requestLog, now, logger });
  return {
    services,
    authenticate,
    keys,
    invalidation,
    usage,
    readCache,
    costBudget,
    sessionCookie,
    readRouting,
    requestLog,
    async start() {
      requestLog.start();
      await invalidation.start();
      await readRouting?.start();
    },
    async stop() {
      readRouting?.stop();
      await invalidation.stop();
      await requestLog.stop();
    },
  };
}
