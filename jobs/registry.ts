import type { Task, TaskList } from 'graphile-worker';
import type { Pool } from 'pg';
import type { PrismaClient } from '../prisma/generated/client/client';
import type { SecretBox } from '../src/auth/secret-box';
import { REQUEST_LOG_RETENTION_DAYS } from '../src/config';
import type { WebhookHttpClient } from '../src/outbound-http/http-client';
import { schedules, type TaskName, taskNames } from '../src/task-catalog';
import type { UsageMeter } from '../src/usage/meter';
import type { DeliveryDeps } from '../src/webhook-delivery/attempt';
import { createFanOut } from '../src/webhook-delivery/fan-out';
import type { DeliveryRateGate } from '../src/webhook-delivery/rate';
import { createAttemptRecorder } from '../src/webhook-delivery/record';
import { makeDeliverWebhook } from './tasks/deliver_webhook';
import { makeFanOutEvent } from './tasks/fan_out_event';
import { makeFlushUsage } from './tasks/flush_usage';
import { pruneExpired } from './tasks/prune_expired';
import { makePruneWebhookDeliveries } from './tasks/prune_webhook_deliveries';
import { makeRecoverWebhookDeliveries } from './tasks/recover_webhook_deliveries';
import { makeRequestLogPartitions } from './tasks/request_log_partitions';
import { type Mailer, makeSendEmail } from './tasks/send_email';
import { makeSendKeyNotices } from './tasks/send_key_notices';
import { makeSendStaffInvitation } from './tasks/send_staff_invitation';
import { makeSweepWebhookDeliveries } from './tasks/sweep_webhook_deliveries';

/** What the webhook tasks need; tests inject the HTTP client (a test CA), the mailer, clock and randomness. */
export interface WebhookWorkerOptions {
  secrets: SecretBox;
  httpClient: WebhookHttpClient;
  /** Each endpoint's rate (src/webhook-delivery/rate.ts): over the shared Redis, or per process without it. */
  rateGate: DeliveryRateGate;
  mailer: Mailer;
  /** The dashboard's address (PUBLIC_URL): e-mailed links start with it. */
  publicUrl: string;
  timeoutMs: number;
  leaseSeconds: number;
  sweepIntervalMs: number;
  logRetentionDays: number;
  now?: () => Date;
  random?: () => number;
}

/** What the tasks are made from: the process's database handles and usage meter, the webhook options. */
export interface TaskDeps {
  prisma: PrismaClient;
  pool: Pool;
  /** The process's own meter: flush_usage moves what it counted. */
  usageMeter: UsageMeter;
  webhooks: WebhookWorkerOptions;
  /** REQUEST_LOG_RETENTION_DAYS (default: its default). */
  requestLogRetentionDays?: number;
}

interface Made extends TaskDeps {
  now: () => Date;
  /** One for fan-out and attempts alike, so their records share statements when the worker is busy. */
  delivery: DeliveryDeps;
}

/** Each task of src/task-catalog.ts from its file in jobs/tasks/; a name missing here, or unknown, fails tsc. */
const makers: { [name in TaskName]: (deps: Made) => Task } = {
  deliver_webhook: ({ delivery }) => makeDeliverWebhook(delivery),
  fan_out_event: ({ delivery }) => makeFanOutEvent(delivery),
  flush_usage: ({ usageMeter, prisma }) => makeFlushUsage(usageMeter, prisma),
  prune_expired: () => pruneExpired,
  prune_webhook_deliveries: ({ prisma, webhooks, now }) =>
    makePruneWebhookDeliveries({ prisma, retentionDays: webhooks.logRetentionDays, now }),
  recover_webhook_deliveries: ({ prisma, now }) => makeRecoverWebhookDeliveries({ prisma, now }),
  request_log_partitions: ({ prisma, requestLogRetentionDays, now }) =>
    makeRequestLogPartitions({
      prisma,
      retentionDays: requestLogRetentionDays ?? REQUEST_LOG_RETENTION_DAYS,
      now,
    }),
  send_email: ({ webhooks }) => makeSendEmail(webhooks.mailer),
  send_key_notices: ({ prisma, webhooks, now }) =>
    makeSendKeyNotices({ prisma, publicUrl: webhooks.publicUrl, now }),
  send_staff_invitation: ({ prisma, webhooks, now }) =>
    makeSendStaffInvitation({ prisma, mailer: webhooks.mailer, publicUrl: webhooks.publicUrl, now }),
  sweep_webhook_deliveries: ({ prisma, webhooks, now }) =>
    makeSweepWebhookDeliveries({ prisma, leaseSeconds: webhooks.leaseSeconds, now }),
};

/** The worker's task list: every task of the catalog, made once from `deps`. */
export function taskList(deps: TaskDeps): TaskList {
  const { pool, webhooks } = deps;
  const now = webhooks.now ?? (() => new Date());
  const delivery: DeliveryDeps = {
    pool,
    recorder: createAttemptRecorder(pool),
    fanOut: createFanOut(pool, { now, leaseSeconds: webhooks.leaseSeconds }),
    secrets: webhooks.secrets,
    httpClient: webhooks.httpClient,
    rateGate: webhooks.rateGate,
    timeoutMs: webhooks.timeoutMs,
    leaseSeconds: webhooks.leaseSeconds,
    now,
    random: webhooks.random ?? Math.random,
  };
  const made: Made = { ...deps, now, delivery };
  return Object.fromEntries(taskNames.map((name) => [name, makers[name](made)]));
}

/** The crontab of the catalog's schedules. `max=1`: a periodic run that failed waits for its next slot. */
export const crontab = schedules.map(({ name, schedule }) => `${schedule} ${name} ?max=1`).join('\n');
