/**
 * Every graphile-worker task, by name. A task's name is its file's, `jobs/tasks/<name>.ts`
 * (test/jobs/registry.test.ts fails when the folder and this table differ); jobs/registry.ts makes the
 * task list and the crontab from it. The table sits low in src/ so that code queueing a job (the
 * outbox, the delivery queue, auto-disable's e-mail) names it without importing the worker.
 * `schedule`: the crontab times of a task the worker runs by the clock.
 */
const catalog = {
  /** One delivery attempt: a failed attempt's retry, the sweeper's and replay's re-queued deliveries. */
  deliver_webhook: {},
  /** An event's deliveries and their first attempts; queued by the outbox with the event. */
  fan_out_event: {},
  flush_usage: { schedule: '* * * * *' },
  prune_expired: { schedule: '0 * * * *' },
  prune_webhook_deliveries: { schedule: '15 * * * *' },
  /** Keys' lifecycle notices (README "Key notices"); also queued by flush_usage after it moved usage. */
  send_key_notices: { schedule: '30 * * * *' },
  /** A recover of an endpoint's failed and exhausted deliveries; queued by recoverWebhookEndpoint. */
  recover_webhook_deliveries: {},
  /** The request log's hour partitions: makes the coming ones, seals (indexes) the ended ones, drops the old. */
  request_log_partitions: { schedule: '2 * * * *' },
  /** Queued by auto-disable. */
  send_email: {},
  /** A staff invitation's e-mail: mints the link's token (stores its digest) and sends it; queued by invite and resend. */
  send_staff_invitation: {},
  /** Queued by each worker every WEBHOOK_SWEEP_INTERVAL_MS (jobs/worker.ts), not by the crontab. */
  sweep_webhook_deliveries: {},
} as const satisfies Record<string, { schedule?: string }>;

export type TaskName = keyof typeof catalog;

export const taskNames = Object.keys(catalog) as TaskName[];

/** Each name as a value, for the code that queues the task: `taskName.fan_out_event`. */
export const taskName = Object.fromEntries(taskNames.map((name) => [name, name])) as {
  readonly [N in TaskName]: N;
};

/** The tasks the crontab runs, with their times. */
export const schedules = taskNames.flatMap((name) => {
  const task: { schedule?: string } = catalog[name];
  return task.schedule ? [{ name, schedule: task.schedule }] : [];
});
