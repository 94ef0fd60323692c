import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { sendRestError } from './respond';

/**
 * Prometheus metrics at GET /metrics: requests by door, route template and status, their latency,
 * the read cache's hits and misses, the graphile-worker queue by task, and Node's process metrics.
 * Route labels are templates (`GET /api/v1/product/{id}`), never raw paths, so their number stays
 * bounded.
 */
export interface Metrics {
  registry: Registry;
  /** Counts and times every request; mount first. */
  observe: (req: Request, res: Response, next: NextFunction) => void;
  /** Serves the exposition text (behind METRICS_TOKEN when set; 404 when closed). */
  serve: (req: Request, res: Response) => Promise<void>;
  /** One GraphQL operation through the pipeline, by door, type and outcome, with its requested cost. */
  operation: (
    labels: { door: string; type: string; outcome: 'ok' | 'error' },
    cost: number | undefined,
  ) => void;
}

/** Paths whose label is the path itself; anything else unmatched is `other`. */
const FIXED_ROUTES = [
  '/graphql',
  '/mcp',
  '/api/v1/mcp',
  '/api/v1/openapi.json',
  '/healthz',
  '/readyz',
  '/metrics',
];

/** The label of a request no route template named: a fixed path's own, else `other`. */
function fixedRoute(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  return FIXED_ROUTES.includes(path) ? path : 'other';
}

/**
 * A request's label sets, made once per method, route and status and then shared (prom-client only
 * reads them): a request no longer allocates its labels, its timer's closures and their merged copy
 * (bench/BASELINE.md "What stands between the 304 / cached page and bare node:http"). Routes are
 * templates and methods and statuses few, so the map stays small. One map per registry.
 */
function requestLabels() {
  const sets = new Map<string, { timed: { method: string; route: string }; counted: RequestLabels }>();
  return (method: string, route: string, status: number) => {
    const name = `${method} ${route} ${status}`;
    let labels = sets.get(name);
    if (labels === undefined) {
      labels = { timed: { method, route }, counted: { method, route, status: String(status) } };
      sets.set(name, labels);
    }
    return labels;
  };
}
type RequestLabels = { method: string; route: string; status: string };

/** How long a scrape's job-queue aggregate is reused, so that scraping cannot be used to load the database. */
export const QUEUE_READ_TTL_MS = 5000;

export function createMetrics(options: {
  prisma: Db;
  /** Required as `Authorization: Bearer <token>` when set. */
  token?: string;
  /** /metrics answers 404 as if it did not exist (production without a token). */
  closed?: boolean;
  processMetrics?: boolean;
  /** The clock of the queue aggregate's reuse (ms). */
  now?: () => number;
  /** Request log rows this process dropped (buffer full, or batch refused): src/request-log/recorder.ts. */
  requestLogDropped?: () => number;
}): Metrics {
  const registry = new Registry();
  const queue = reusedFor(QUEUE_READ_TTL_MS, options.now ?? Date.now, () =>
    // A database that does not answer leaves the gauge empty rather than failing the scrape.
    readQueue(options.prisma).catch(() => []),
  );
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });

  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ) => new Histogram({ name, help, labelNames, buckets, registers: [registry] });

  const requests = counter(
    'http_requests_total',
    'HTTP requests answered, by method, route template and status',
    ['method', 'route', 'status'],
  );
  const duration = histogram(
    'http_request_duration_seconds',
    'Time from the request to the end of the response, by method and route template',
    ['method', 'route'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  );
  const readCache = counter(
    'read_cache_lookups_total',
    'Cacheable reads by route template and what the read cache did: hit, miss (run, then remembered) or off (Redis could not say, or the caller lacks a scope)',
    ['route', 'result'],
  );
  const operations = counter(
    'graphql_operations_total',
    'GraphQL operations run by the pipeline, by door (graphql, rest, mcp), type and outcome (ok, or error: any error in the result)',
    ['door', 'type', 'outcome'],
  );
  const cost = histogram(
    'graphql_query_cost',
    'Requested cost of the operations run, by door (README "Query limits and cost")',
    ['door'],
    [1, 10, 30, 100, 300, 1000, 3000, 10_000, 30_000],
  );
  const labelsFor = requestLabels();
  const operationChildren = new Map<
    string,
    { count: { inc(): void }; cost: { observe(value: number): void } }
  >();
  // Registered with the registry, which reads it at each scrape.
  new Gauge({
    name: 'worker_jobs',
    help: 'graphile-worker jobs waiting (run_at reached, not locked), scheduled (run_at ahead) or locked, by task',
    labelNames: ['task', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await queue();
      for (const row of rows) this.set({ task: row.task, state: row.state }, Number(row.count));
    },
  });

  const requestLogDropped = options.requestLogDropped;
  if (requestLogDropped)
    new Counter({
      name: 'request_log_dropped_total',
      help: 'Request log entries this process dropped: its buffer was full, or the database refused their batch',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(requestLogDropped());
      },
    });

  const expected = options.token ? Buffer.from(`Bearer ${options.token}`) : null;
  const authorized = (req: Request) => {
    if (!expected) return true;
    const given = Buffer.from(req.get('authorization') ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  return {
    registry,
    observe(req, res, next) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const route = req.state?.route ?? fixedRoute(req.originalUrl);
        const labels = labelsFor(req.method, route, res.statusCode);
        duration.observe(labels.timed, Number(process.hrtime.bigint() - started) / 1e9);
        requests.inc(labels.counted);
        const cached = req.state?.readCache;
        if (cached) readCache.inc({ route, result: cached });
      });
      next();
    },
    operation(labels, requested) {
      // Children per label set, made once: labelling each observation hashes its labels again.
      const name = `${labels.door} ${labels.type} ${labels.outcome}`;
      let child = operationChildren.get(name);
      if (!child) {
        child = { count: operations.labels(labels), cost: cost.labels({ door: labels.door }) };
        operationChildren.set(name, child);
      }
      child.count.inc();
      if (requested !== undefined) child.cost.observe(requested);
    },
    async serve(req, res) {
      // The JSON 404 of any path that does not exist: nothing says metrics are here.
      if (options.closed)
        return sendRestError(res, new AppError('NOT_FOUND', `No route ${req.method} ${req.path}`));
      if (!authorized(req)) {
        res
          .status(401)
          .setHeader('WWW-Authenticate', 'Bearer')
          .type('text/plain')
          .send('metrics token required\n');
        return;
      }
      res.type(registry.contentType).send(await registry.metrics());
    },
  };
}

/**
 * `read`'s promise, reused for `ttlMs` after it was made: scrapes within that time, concurrent ones
 * included, share one database round trip.
 */
function reusedFor<T>(ttlMs: number, now: () => number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const at = now();
    if (!last || at - last.at >= ttlMs || at < last.at) last = { at, value: read() };
    return last.value;
  };
}

function readQueue(prisma: Db) {
  return prisma.$queryRaw<Array<{ task: string; state: string; count: bigint }>>`
    select task_identifier as task,
           case when locked_at is not null then 'locked'
                when run_at > now() then 'scheduled'
                else 'waiting' end as state,
           count(*) as count
      from graphile_worker.jobs
     group by 1, 2`;
}
