import { type Runner, run, Logger as WorkerLogger } from 'graphile-worker';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { PrismaClient } from '../prisma/generated/client/client';
import type { Config } from '../src/config';
import type { DatabaseAvailability } from '../src/db/availability';
import { isDatabaseUnavailable } from '../src/errors';
import { createWebhookHttpClient } from '../src/outbound-http/http-client';
import type { RedisClient } from '../src/redis';
import { REDIS_KEY_PREFIX } from '../src/redis';
import { taskName } from '../src/task-catalog';
import type { UsageMeter } from '../src/usage/meter';
import { createDeliveryRateGate } from '../src/webhook-delivery/rate';
import { webhookServicesFrom } from '../src/webhook-delivery/services';
import { crontab, taskList, type WebhookWorkerOptions } from './registry';
import { createMailer } from './tasks/send_email';

/**
 * Production wiring from configuration: system CAs, SMTP or the log transport, endpoint rates over
 * `redis` (null: held per process, with a warning).
 */
export function webhookWorkerOptions(
  config: Config,
  logger: Logger,
  overrides: Partial<WebhookWorkerOptions> = {},
  redis: RedisClient | null = null,
): WebhookWorkerOptions {
  const { secrets, urlPolicy } = webhookServicesFrom(config);
  return {
    secrets,
    httpClient: overrides.httpClient ?? createWebhookHttpClient(urlPolicy),
    rateGate:
      overrides.rateGate ??
      createDeliveryRateGate({
        redis,
        logger,
        keyPrefix: `${REDIS_KEY_PREFIX}webhook-rate:`,
        timeoutMs: config.redisTimeoutMs,
      }),
    mailer: overrides.mailer ?? createMailer({ url: config.smtp.url, from: config.smtp.from, logger }),
    publicUrl: config.publicUrl,
    timeoutMs: config.webhook.timeoutMs,
    leaseSeconds: config.webhook.leaseSeconds,
    sweepIntervalMs: config.webhook.sweepIntervalMs,
    logRetentionDays: config.webhook.logRetentionDays,
    ...overrides,
  };
}

/**
 * graphile-worker's log lines, through pino, short: the job named by id and task (its payload and
 * queue details stay out of the line), and a job that simply completed is debug — periodic jobs
 * (sweeper, usage flush, pruning) say at info only what they did, in their own lines.
 */
export function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    let method: 'error' | 'warn' | 'info' | 'debug' =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'debug' ? 'debug' : 'info';
    if (method === 'info' && /^Completed task .* with success/.test(message)) method = 'debug';
    const job = scope.jobId === undefined ? {} : { job: { id: scope.jobId, task: scope.taskIdentifier } };
    logger[method](
      { ...job, ...(scope.workerId ? { workerId: scope.workerId } : {}), ...compact(meta) },
      message,
    );
  });
}

/** The meta of a worker line without the objects that made it hundreds of characters long. */
function compact(meta: Record<string, unknown> | undefined) {
  if (!meta) return {};
  const { job: _job, worker: _worker, ...rest } = meta;
  return rest;
}

/**
 * Runs the queue on the shared pool until stop() — which waits for jobs in flight to finish (a
 * delivery attempt ends within its deadline; one cut off anyway is taken over after its lease).
 * Every WEBHOOK_SWEEP_INTERVAL_MS this process queues the sweeper (one job key for all workers).
 */
export async function startWorker(options: {
  pgPool: Pool;
  logger: Logger;
  concurrency: number;
  usageMeter: UsageMeter;
  prisma: PrismaClient;
  webhooks: WebhookWorkerOptions;
  requestLogRetentionDays?: number;
  pollInterval?: number;
  /** Told of statements that failed because PostgreSQL is away (one warning per outage). */
  availability?: DatabaseAvailability;
}): Promise<Runner> {
  const logger = options.logger.child({ role: 'worker' });
  const runner = await run({
    pgPool: options.pgPool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: options.pollInterval ?? 1000,
    taskList: taskList({
      prisma: options.prisma,
      pool: options.pgPool,
      usageMeter: options.usageMeter,
      webhooks: options.webhooks,
      requestLogRetentionDays: options.requestLogRetentionDays,
    }),
    crontab,
    logger: workerLogger(logger),
  });
  const sweep = () =>
    runner
      .addJob(
        taskName.sweep_webhook_deliveries,
        {},
        {
          jobKey: taskName.sweep_webhook_deliveries,
          jobKeyMode: 'preserve_run_at',
          maxAttempts: 1,
        },
      )
      .catch((error: unknown) => {
        if (options.availability && isDatabaseUnavailable(error)) options.availability.report(error);
        else logger.warn({ err: error }, 'could not queue the webhook sweeper');
      });
  void sweep();
  const timer = setInterval(sweep, options.webhooks.sweepIntervalMs);
  timer.unref();
  const release = () => {
    clearInterval(timer);
    options.webhooks.mailer.close();
    return options.webhooks.httpClient.close();
  };
  runner.promise.then(release, release);
  return runner;
}

/**
 * graphile-worker (0.17) reports a job done or failed without awaiting the statement (its worker calls
 * completeJob(job) and drops the promise), so PostgreSQL going away at that moment is an unhandled
 * rejection, which ends a Node process. Such a rejection goes to `availability` (one warning per outage)
 * and its job stays locked until the sweeper or graphile-worker hands it on; any other unhandled
 * rejection still ends the process. Returns the uninstaller.
 */
export function surviveLostJobReports(availability: DatabaseAvailability): () => void {
  const onRejection = (reason: unknown) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    availability.report(reason);
  };
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}
