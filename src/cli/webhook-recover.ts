import type { WebhookRecovery } from '../../prisma/generated/client/client';
import { systemContext } from '../context';
import { AppError, notFound } from '../errors';
import { createLogger } from '../logger';
import { recoverEndpoint } from '../modules/webhooks/recover';
import { type Command, command, stringOption } from './args';

/** How often `webhook recover` reads the recovery's progress while the worker runs it. */
const POLL_MS = 500;

const describe = (r: WebhookRecovery) =>
  `${r.id}  ${r.status}  ${r.done}/${r.total ?? '?'} gone through, ${r.queued} re-queued${r.errorMessage ? `  (${r.errorMessage})` : ''}`;

/** The service names its input's fields (`input.since`, `input.eventTypes.1`); the CLI, its options. */
const optionOf: Record<string, string> = { since: '--since', until: '--until', eventTypes: '--events' };
function asOptions(error: unknown): unknown {
  if (!(error instanceof AppError) || !error.details) return error;
  const details = error.details.map((detail) => {
    const field = detail.path.replace(/^input\./, '').split('.')[0] ?? '';
    return { ...detail, path: optionOf[field] ?? detail.path };
  });
  return new AppError(error.code, error.message, details);
}

const date = (value: string | undefined, name: string) => {
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime()))
    throw new AppError('VALIDATION_ERROR', `--${name}: not a date-time (e.g. 2026-11-25T08:00:00Z)`, [
      { path: `--${name}`, message: 'must be a date-time' },
    ]);
  return parsed;
};

/**
 * `webhook recover`: the endpoint's failed and exhausted deliveries since a moment re-sent by one job
 * (README "Webhooks", Recover) — the same service call as the API's recover — then its progress
 * printed until it is done, failed, or Ctrl-C (the job goes on without the command).
 */
export const webhookRecoverCommand: Command = command({
  name: 'webhook recover',
  summary:
    'Re-sends an endpoint’s failed and exhausted deliveries created since a moment (at most 30 days back) and prints the progress.',
  options: {
    endpoint: { type: 'string', value: '<endpointId>', description: 'The endpoint (whe_…)' },
    since: { type: 'string', value: '<date-time>', description: 'From this moment (ISO 8601)' },
    until: { type: 'string', value: '<date-time>', description: 'Up to this moment (default: now)' },
    events: { type: 'string', value: '<types>', description: 'Only these event types, comma-separated' },
  },
  required: ['endpoint', 'since'],
  notes: [
    'The service’s worker runs the job; the progress is printed until it is done (Ctrl-C stops waiting).',
  ],
  async run({ db, writer, invalidateAuth, webhooks, progress, interrupted }, input) {
    const endpointId = stringOption(input, 'endpoint') as string;
    const endpoint = await db.webhookEndpoint.findUnique({
      where: { id: endpointId },
      select: { store: { select: { id: true, plan: true } } },
    });
    if (!endpoint) throw notFound('Webhook endpoint');
    const ctx = systemContext(
      { prisma: db, now: () => new Date(), invalidateAuth, storeChanged: writer.storeChanged, webhooks },
      endpoint.store,
      createLogger('silent'),
    );
    const events = stringOption(input, 'events');
    let recovery = await recoverEndpoint(ctx, endpointId, {
      since: date(stringOption(input, 'since'), 'since'),
      until: date(stringOption(input, 'until'), 'until'),
      eventTypes: events ? events.split(',').map((type) => type.trim()) : undefined,
    }).catch((error: unknown) => {
      throw asOptions(error);
    });
    let stop = false;
    void interrupted?.().then(() => {
      stop = true;
    });
    let shown = '';
    while (!stop && (recovery.status === 'queued' || recovery.status === 'running')) {
      const line = describe(recovery);
      if (line !== shown && !input.json) progress?.(line);
      shown = line;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      recovery = await db.webhookRecovery.findUniqueOrThrow({ where: { id: recovery.id } });
    }
    return { json: recovery, text: [describe(recovery)] };
  },
});
