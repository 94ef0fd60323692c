import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/** How long the request log keeps an entry, unless REQUEST_LOG_RETENTION_DAYS says otherwise. */
export const REQUEST_LOG_RETENTION_DAYS = 7;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** A session-holding connection to the primary (worker, migrations); unset: DATABASE_URL. */
    DATABASE_DIRECT_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** A streaming replica for reads (README "Deploying at scale"); unset: every read on the primary. */
    DATABASE_REPLICA_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** Reads leave a replica that has not replayed what the primary had this long ago. */
    REPLICA_MAX_LAG_MS: z.coerce.number().int().min(10).max(3_600_000).default(2000),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    /** A Redis Cluster instead of one server: its seed nodes, comma-separated host:port (not with REDIS_URL). */
    REDIS_CLUSTER_NODES: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((node) => node.trim())
          .filter((node) => node !== ''),
      )
      .refine((nodes) => nodes.length > 0 && nodes.every((node) => /^[^\s,/:]+:\d{1,5}$/.test(node)), {
        message: 'must be one or more host:port, comma-separated (the seed nodes of a Redis Cluster)',
      })
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Express "trust proxy": false, true (refused in production), a hop count or a list of proxy addresses. */
    TRUST_PROXY: z.string().default('false'),
    DATA_DIR: z.string().default('.data'),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
    RATE_LIMIT_MAX: z.coerce.number().int().positive().default(140),
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
    /** Per signed-in staff member; unset: the same as for a key. */
    SESSION_RATE_LIMIT_MAX: z.coerce.number().int().positive().optional(),
    SESSION_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().optional(),
    /** A dashboard session ends this long after its last request (and 12 h after sign-in in any case). */
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(720).default(120),
    /** Longest wait for Redis on the request path; slower answers fall back to per-process limits. */
    REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).max(5000).default(100),
    AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    /** Well-formed keys and session tokens matching nothing, per client address and window, before 429. */
    AUTH_FAILURES_PER_IP_MAX: z.coerce.number().int().positive().default(30),
    AUTH_FAILURES_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    /** How long an API process may reuse a catalogue read's answer at most (0: no read cache). */
    READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    /** Size of each API process's read cache, in MiB of answer text. */
    READ_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
    GRAPHIQL: bool.optional(),
    /** false: every /graphql request is yoga's, the JSON POST too (README "Architecture"). */
    GRAPHQL_LEAN_POST: bool.default(true),
    /** Comma-separated browser origins allowed to call the API (CORS) and to send cookie-authenticated writes. */
    CORS_ORIGINS: z.string().optional(),
    /** Query limits of /graphql (README "Query limits and cost"). */
    GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(1000).default(20),
    GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(100_000).default(30),
    GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).max(100_000).default(50),
    GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).max(1_000_000).default(5000),
    GRAPHQL_MAX_COST: z.coerce.number().int().min(1).max(100_000_000).default(25_000),
    GRAPHQL_MAX_RESPONSE_BYTES: z.coerce.number().int().min(1024).max(1_073_741_824).default(16_777_216),
    /** Query cost each key and each signed-in staff member may spend per window (0: no budget). */
    COST_BUDGET_POINTS: z.coerce.number().int().min(0).max(1_000_000_000).default(50_000),
    COST_BUDGET_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    STORE_MAX_COST_IN_FLIGHT: z.coerce.number().int().min(0).max(1_000_000_000).default(25_000),
    SEED_DEMO: bool.default(false),
    /** API processes on the one port (node:cluster): a count, or `auto` for the machine's cores. */
    API_PROCESSES: z
      .union([z.literal('auto'), z.coerce.number().int().min(1).max(1024)], {
        error: 'must be a whole number from 1 to 1024, or auto (one per core)',
      })
      .default(1),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(25_000),
    /** PostgreSQL ends a statement of the API and worker running longer than this (0: never). */
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
    /** The HTTP server's clocks (README "Failure modes"): all headers, a whole request, an idle keep-alive. */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    WORKER_CONCURRENCY: z.coerce.number().int().positive().default(20),
    /** The worker role answers /healthz and /readyz on this port (unset: it listens on none). */
    WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset in production, /metrics is 404. */
    METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
    /** 32 bytes, base64 or hex: the AES-256-GCM key of the webhook signing secrets. */
    WEBHOOK_SECRET_KEY: z
      .string()
      .refine((value) => decodeSecretKey(value) !== null, 'must be 32 bytes, base64 or 64 hex characters')
      .optional(),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** How long a worker holds a delivery it attempts; past it, a live worker takes the delivery over. */
    WEBHOOK_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    WEBHOOK_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Test-only: comma-separated hosts (name, IP, optionally host:port) exempt from the webhook address policy. */
    WEBHOOK_ALLOWED_HOSTS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((host) => host.trim())
          .filter((host) => host !== ''),
      ),
    /** The request log (README "Request log"): on, or off (nothing recorded; the bench's comparison). */
    REQUEST_LOG: z.enum(['on', 'off']).default('on'),
    REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(90).default(REQUEST_LOG_RETENTION_DAYS),
    /** Entries held in an API process waiting for their batched write; past it, new ones are dropped and counted. */
    REQUEST_LOG_BUFFER_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    REQUEST_LOG_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    SMTP_FROM: z.string().default('Commerce Webhooks <webhooks@localhost>'),
    /** Where people reach the dashboard: the base of the links e-mails carry (staff invitations). */
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.WEBHOOK_ALLOWED_HOSTS.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_ALLOWED_HOSTS'],
        message:
          'must be empty in production (a test-only allow-list that bypasses the webhook SSRF address policy)',
      });
    }
    if (env.REDIS_URL && env.REDIS_CLUSTER_NODES) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_CLUSTER_NODES'],
        message:
          'and REDIS_URL are both set: set REDIS_URL for one Redis server or REDIS_CLUSTER_NODES for a cluster, not both',
      });
    }
    if (env.NODE_ENV === 'production' && !env.WEBHOOK_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['WEBHOOK_SECRET_KEY'], message: 'is required in production' });
    }
    // The demo store's staff sign in with a published password: never in production.
    if (env.NODE_ENV === 'production' && env.SEED_DEMO) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_DEMO'],
        message: `must be false in production (the demo store's staff sign in with the published password ${DEMO_PASSWORD_HINT})`,
      });
    }
    if (env.NODE_ENV === 'production' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: `is required in production (without it the embedded PostgreSQL is seeded with demo accounts whose password is ${DEMO_PASSWORD_HINT})`,
      });
    }
    if (env.DATABASE_URL && pooledUrl(env.DATABASE_URL).pooled && !env.DATABASE_DIRECT_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_DIRECT_URL'],
        message:
          'is required when DATABASE_URL names PgBouncer (?pgbouncer=true): the worker and migrations need a session of their own on the primary',
      });
    }
    if (env.NODE_ENV === 'production' && trustsEveryHop(env.TRUST_PROXY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message: `must name the proxies in production, not trust every X-Forwarded-For hop (any client could then pick its own address past IP allowlists and the sign-in throttle): set the hop count (1 behind one proxy) or the proxies' addresses or CIDRs`,
      });
    }
    for (const origin of (env.CORS_ORIGINS ?? '').split(',')) {
      const trimmed = origin.trim().replace(/\/$/, '');
      if (trimmed !== '' && !isOrigin(trimmed))
        ctx.addIssue({
          code: 'custom',
          path: ['CORS_ORIGINS'],
          message: `"${trimmed}" is not an origin (scheme://host[:port], no path)`,
        });
    }
    if (env.HTTP_REQUEST_TIMEOUT_MS < env.HTTP_HEADERS_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_REQUEST_TIMEOUT_MS'],
        message: 'must be at least HTTP_HEADERS_TIMEOUT_MS (the headers are part of the request)',
      });
    }
    if (env.WEBHOOK_LEASE_SECONDS * 1000 < env.WEBHOOK_TIMEOUT_MS + 1000) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_LEASE_SECONDS'],
        message:
          'must exceed WEBHOOK_TIMEOUT_MS by at least a second (a live attempt must never lose its lease)',
      });
    }
  })
  .transform((env) => ({
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    /** DATABASE_URL without Prisma's `pgbouncer=true` marker, which `databasePooled` holds. */
    databaseUrl: env.DATABASE_URL && pooledUrl(env.DATABASE_URL).url,
    /** DATABASE_URL names PgBouncer in transaction mode (`?pgbouncer=true`): no prepared statements. */
    databasePooled: env.DATABASE_URL !== undefined && pooledUrl(env.DATABASE_URL).pooled,
    /** What needs a session (graphile-worker's LISTEN and advisory locks, migrations): DATABASE_DIRECT_URL. */
    databaseDirectUrl: env.DATABASE_DIRECT_URL ?? (env.DATABASE_URL && pooledUrl(env.DATABASE_URL).url),
    replica: env.DATABASE_REPLICA_URL
      ? { url: pooledUrl(env.DATABASE_REPLICA_URL).url, maxLagMs: env.REPLICA_MAX_LAG_MS }
      : undefined,
    redisUrl: env.REDIS_URL,
    /** The shared Redis (src/redis.ts): one server, a cluster's seed nodes, or none. */
    redis: env.REDIS_CLUSTER_NODES
      ? { clusterNodes: env.REDIS_CLUSTER_NODES }
      : (env.REDIS_URL as string | undefined),
    logLevel: env.LOG_LEVEL,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    /** TRUST_PROXY trusts every hop (allowed outside production, with a warning). */
    trustsEveryProxy: trustsEveryHop(env.TRUST_PROXY),
    dataDir: env.DATA_DIR,
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    rateLimit: { max: env.RATE_LIMIT_MAX, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS },
    sessionRateLimit: {
      max: env.SESSION_RATE_LIMIT_MAX ?? env.RATE_LIMIT_MAX,
      windowSeconds: env.SESSION_RATE_LIMIT_WINDOW_SECONDS ?? env.RATE_LIMIT_WINDOW_SECONDS,
    },
    sessionIdleMs: env.SESSION_IDLE_MINUTES * 60_000,
    redisTimeoutMs: env.REDIS_TIMEOUT_MS,
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    authFailures: { points: env.AUTH_FAILURES_PER_IP_MAX, durationSeconds: env.AUTH_FAILURES_WINDOW_SECONDS },
    readCache: { ttlMs: env.READ_CACHE_TTL_MS, maxBytes: env.READ_CACHE_MAX_MB * 1024 * 1024 },
    graphiql: env.GRAPHIQL ?? env.NODE_ENV !== 'production',
    graphqlLeanPost: env.GRAPHQL_LEAN_POST,
    corsOrigins: corsOrigins(env.CORS_ORIGINS, env.NODE_ENV, env.PORT),
    queryLimits: {
      maxDepth: env.GRAPHQL_MAX_DEPTH,
      maxAliases: env.GRAPHQL_MAX_ALIASES,
      maxDirectives: env.GRAPHQL_MAX_DIRECTIVES,
      maxTokens: env.GRAPHQL_MAX_TOKENS,
      maxCost: env.GRAPHQL_MAX_COST,
      maxResponseBytes: env.GRAPHQL_MAX_RESPONSE_BYTES,
    },
    costBudget: { points: env.COST_BUDGET_POINTS, windowSeconds: env.COST_BUDGET_WINDOW_SECONDS },
    /** Query cost each store may have executing at once per API process (0: unbounded). */
    storeMaxCostInFlight: env.STORE_MAX_COST_IN_FLIGHT,
    seedDemo: env.SEED_DEMO,
    apiProcesses: env.API_PROCESSES === 'auto' ? availableParallelism() : env.API_PROCESSES,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    http: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    workerConcurrency: env.WORKER_CONCURRENCY,
    workerHealthPort: env.WORKER_HEALTH_PORT,
    metrics: {
      token: env.METRICS_TOKEN,
      /** In production without a token /metrics is not public: it answers 404 (main.ts warns). */
      closed: env.NODE_ENV === 'production' && env.METRICS_TOKEN === undefined,
    },
    webhook: {
      secretKey: decodeSecretKey(env.WEBHOOK_SECRET_KEY ?? '') ?? DEV_WEBHOOK_SECRET_KEY,
      /** Outside production with no WEBHOOK_SECRET_KEY: a fixed, public development key (main.ts warns). */
      secretKeyIsDevDefault: env.WEBHOOK_SECRET_KEY === undefined,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      logRetentionDays: env.WEBHOOK_LOG_RETENTION_DAYS,
      leaseSeconds: env.WEBHOOK_LEASE_SECONDS,
      sweepIntervalMs: env.WEBHOOK_SWEEP_INTERVAL_MS,
      /** Test-only hosts exempt from the webhook address policy; always empty in production. */
      allowedHosts: env.WEBHOOK_ALLOWED_HOSTS,
    },
    requestLog: {
      enabled: env.REQUEST_LOG === 'on',
      retentionDays: env.REQUEST_LOG_RETENTION_DAYS,
      bufferMax: env.REQUEST_LOG_BUFFER_MAX,
      flushMs: env.REQUEST_LOG_FLUSH_MS,
    },
    smtp: { url: env.SMTP_URL, from: env.SMTP_FROM },
    /** The dashboard's address for e-mailed links; default: this machine's port. */
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  }));

/** Development and test only, never production (the schema refuses production without a key). */
const DEV_WEBHOOK_SECRET_KEY = createHash('sha256')
  .update('commerce-service development webhook key')
  .digest();

/**
 * Prisma's convention: `?pgbouncer=true` on a database URL says PgBouncer in transaction mode is in
 * front. pg does not know the parameter (it would send it as a startup option), so it is taken off.
 */
export function pooledUrl(value: string): { url: string; pooled: boolean } {
  const url = new URL(value);
  const flag = url.searchParams.get('pgbouncer');
  if (flag === null) return { url: value, pooled: false };
  url.searchParams.delete('pgbouncer');
  return { url: url.toString(), pooled: flag === 'true' || flag === '1' };
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

function decodeSecretKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

export type Config = z.output<typeof schema>;

/**
 * CORS_ORIGINS, or by default: in development the service's own origins and Vite's dev server
 * (the dashboard in development), in production and tests none.
 */
function corsOrigins(value: string | undefined, env: string, port: number): string[] {
  if (value !== undefined)
    return value
      .split(',')
      .map((origin) => origin.trim().replace(/\/$/, ''))
      .filter((origin) => origin !== '');
  if (env !== 'development') return [];
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`, 'http://localhost:5173'];
}

/** `true`, or a range holding every address: whoever connects may name the client address. */
function trustsEveryHop(value: string): boolean {
  return value
    .split(',')
    .map((part) => part.trim())
    .some((part) => part === 'true' || /\/0$/.test(part));
}

/** Said in refusals only: the seed (prisma/seed/demo-store.ts) holds the password itself. */
const DEMO_PASSWORD_HINT = '`demo-password`';

/**
 * What start-up warns about, one line each naming the setting to change (main.ts logs them):
 * settings that are allowed but unsafe or surprising. `api`: the process serves HTTP.
 */
export function configWarnings(config: Config, role: { api: boolean }): string[] {
  const warnings: string[] = [];
  if (config.webhook.secretKeyIsDevDefault)
    warnings.push('no WEBHOOK_SECRET_KEY: webhook secrets are encrypted with the fixed development key');
  if (role.api && config.trustsEveryProxy)
    warnings.push(
      "TRUST_PROXY trusts every X-Forwarded-For hop: any client can pick its own address past IP allowlists and the sign-in throttle; set the hop count (1) or the proxies' addresses (production refuses it)",
    );
  if (role.api && config.databasePooled && config.statementTimeoutMs > 0)
    warnings.push(
      "DB_STATEMENT_TIMEOUT_MS is not sent through PgBouncer (it refuses the startup parameter): set statement_timeout in PgBouncer's connect_query or on the database role",
    );
  if (role.api && config.metrics.closed)
    warnings.push('/metrics answers 404 in production without a token: set METRICS_TOKEN to scrape /metrics');
  return warnings;
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'false' || value === '') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

export class ConfigError extends Error {}

/** Parses the environment once; every bad value is named in one message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `FOO= npm start`.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(set);
  if (!parsed.success) {
    // One line, every bad setting named: start-up failures are one line each (README "Start").
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
