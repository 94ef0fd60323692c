import { type Runner, run, type TaskList, Logger as WorkerLogger } from 'graphile-worker';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { PrismaClient } from '../prisma/generated/client/client';
import type { SecretBox } from '../src/auth/secret-box';
import type { Config } from '../src/config';
import type { DatabaseAvailability } from '../src/db/availability';
import { isDatabaseUnavailable } from '../src/errors';
import { FAN_OUT_TASK } from '../src/events/outbox';
import { createWebhookHttpClient, type WebhookHttpClient } from '../src/outbound-http/http-client';
import type { UsageMeter } from '../src/usage/meter';
import { createFanOut } from '../src/webhook-delivery/fan-out';
import { DELIVER_TASK, SEND_EMAIL_TASK } from '../src/webhook-delivery/queue';
import { createAttemptRecorder } from '../src/webhook-delivery/record';
import { webhookServicesFrom } from '../src/webhook-delivery/services';
import { makeDeliverWebhook } from './tasks/deliver_webhook';
import { makeFanOutEvent } from './tasks/fan_out_event';
import { makeFlushUsage } from './tasks/flush_usage';
import { pruneExpired } from './tasks/prune_expired';
import { makePruneWebhookDeliveries } from './tasks/prune_webhook_deliveries';
import { createMailer, type Mailer, makeSendEmail } from './tasks/send_email';
import { makeSweepWebhookDeliveries, SWEEP_TASK } from './tasks/sweep_webhook_deliveries';

/** Task names are the file names under jobs/tasks (snake_case). */
export const taskList: TaskList = {
  prune_expired: pruneExpired,
};

export const crontab = ['0 * * * * prune_expired ?max=1'].join('\n');

/** What the webhook tasks need; tests inject the HTTP client (a test CA), the mailer, clock and randomness. */
export interface WebhookWorkerOptions {
  secrets: SecretBox;
  httpClient: WebhookHttpClient;
  mailer: Mailer;
  timeoutMs: number;
  leaseSeconds: number;
  sweepIntervalMs: number;
  logRetentionDays: number;
  now?: () => Date;
  random?: () => number;
}

/** Production wiring from configuration: system CAs, SMTP or the log transport. */
export function webhookWorkerOptions(
  config: Config,
  logger: Logger,
  overrides: Partial<WebhookWorkerOptions> = {},
): WebhookWorkerOptions {
  const { secrets, urlPolicy } = webhookServicesFrom(config);
  return {
    secrets,
    httpClient: overrides.httpClient ?? createWebhookHttpClient(urlPolicy),
    mailer: overrides.mailer ?? createMailer({ url: config.smtp.url, from: config.smtp.from, logger }),
    timeoutMs: config.webhook.timeoutMs,
    leaseSeconds: config.webhook.leaseSeconds,
    sweepIntervalMs: config.webhook.sweepIntervalMs,
    logRetentionDays: config.webhook.logRetentionDays,
    ...overrides,
  };
}

/** The webhook pipeline: fan-out, delivery attempts, e-mail, the dead-worker sweeper, log pruning. */
export function webhookTasks(
  db: { prisma: PrismaClient; pool: Pool },
  options: WebhookWorkerOptions,
): TaskList {
  const { prisma, pool } = db;
  const now = options.now ?? (() => new Date());
  const delivery = {
    pool,
    recorder: createAttemptRecorder(pool),
    fanOut: createFanOut(pool, { now, leaseSeconds: options.leaseSeconds }),
    secrets: options.secrets,
    httpClient: options.httpClient,
    timeoutMs: options.timeoutMs,
    leaseSeconds: options.leaseSeconds,
    now,
    random: options.random ?? Math.random,
  };
  return {
    [FAN_OUT_TASK]: makeFanOutEvent(delivery),
    [DELIVER_TASK]: makeDeliverWebhook(delivery),
    [SEND_EMAIL_TASK]: makeSendEmail(options.mailer),
    [SWEEP_TASK]: makeSweepWebhookDeliveries({ prisma, leaseSeconds: options.leaseSeconds, now }),
    prune_webhook_deliveries: makePruneWebhookDeliveries({
      prisma,
      retentionDays: options.logRetentionDays,
      now,
    }),
  };
}

/** Tasks that need this process's own state: flush_usage moves the usage meter's counts, every minute. */
export function processTasks(options: {
  usageMeter: UsageMeter;
  prisma: PrismaClient;
  /** Absent: no webhook tasks (tests of the other tasks). */
  webhooks?: WebhookWorkerOptions & { pool: Pool };
}): {
  taskList: TaskList;
  crontab: string;
} {
  return {
    taskList: {
      ...taskList,
      ...(options.webhooks
        ? webhookTasks({ prisma: options.prisma, pool: options.webhooks.pool }, options.webhooks)
        : {}),
      flush_usage: makeFlushUsage(options.usageMeter, options.prisma),
    },
    crontab: [
      crontab,
      '* * * * * flush_usage ?max=1',
      ...(options.webhooks ? ['15 * * * * prune_webhook_deliveries ?max=1'] : []),
    ].join('\n'),
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
  pollInterval?: number;
  /** Told of statements that failed because PostgreSQL is away (one warning per outage). */
  availability?: DatabaseAvailability;
}): Promise<Runner> {
  const tasks = processTasks({ ...options, webhooks: { ...options.webhooks, pool: options.pgPool } });
  const logger = options.logger.child({ role: 'worker' });
  const runner = await run({
    pgPool: options.pgPool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: options.pollInterval ?? 1000,
    taskList: tasks.taskList,
    crontab: tasks.crontab,
    logger: workerLogger(logger),
  });
  const sweep = () =>
    runner
      .addJob(SWEEP_TASK, {}, { jobKey: SWEEP_TASK, jobKeyMode: 'preserve_run_at', maxAttempts: 1 })
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
