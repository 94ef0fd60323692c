import { type FormEvent, useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { useAction } from '../components/mutation';
import { usePollWhile } from '../components/poll';
import { Dialog, ErrorAlert, Field, Status, When } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql } from '../graphql';
import { isoFromLocal, localFromIso } from '../local-time';

/** README "Webhooks", Recover: the endpoint page's "Recover…" dialog and the latest recovery's progress. */

const RecoverEndpoint = graphql(`
  mutation RecoverEndpoint($id: ID!, $input: RecoverWebhookEndpointInput!) {
    recoverWebhookEndpoint(id: $id, input: $input) { id status }
  }
`);

const LatestRecoveryQuery = graphql(`
  query LatestRecovery($endpointId: ID!) {
    webhookRecoveries(endpointId: $endpointId, limit: 1) {
      items { id status since until eventTypes total done queued errorMessage createdAt finishedAt }
    }
  }
`);

const EventTypesQuery = graphql(`query RecoverEventTypes { webhookEventTypes { type } }`);

const DAY_MS = 86_400_000;

/** Since, until and event types (the endpoint's own; empty: all of them), then the job is queued. */
export function RecoverDialog(props: {
  endpointId: string;
  events: readonly string[];
  onQueued: () => void;
}) {
  const [open, setOpen] = useState(false);
  const recover = useAction(RecoverEndpoint);
  const [catalog] = useQuery({ query: EventTypesQuery, pause: !open || !props.events.includes('*') });
  const choices = props.events.includes('*')
    ? (catalog.data?.webhookEventTypes.map((entry) => entry.type) ?? [])
    : props.events;
  const errors = recover.error?.fields ?? {};
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const queued = await recover.run({
      id: props.endpointId,
      input: {
        since: isoFromLocal(text('since')) as string,
        until: isoFromLocal(text('until')),
        eventTypes: form.getAll('eventTypes').map(String),
      },
    });
    if (queued) {
      setOpen(false);
      props.onQueued();
    }
  };
  return (
    <Dialog
      title="Recover failed deliveries"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) recover.clear();
      }}
      trigger={<button type="button">Recover…</button>}
    >
      <form onSubmit={submit} noValidate>
        <p>
          Every failed or exhausted delivery created in this window is sent again, with its event id, by a
          background job. At most 30 days back.
        </p>
        <ErrorAlert error={recover.error} />
        <Field label="Since" name="since" error={errors.since}>
          {(a) => (
            <input
              {...a}
              type="datetime-local"
              required
              defaultValue={localFromIso(new Date(Date.now() - DAY_MS).toISOString())}
            />
          )}
        </Field>
        <Field label="Until" name="until" error={errors.until} hint="Empty: now">
          {(a) => <input {...a} type="datetime-local" />}
        </Field>
        <fieldset className={errors.eventTypes ? 'invalid' : undefined}>
          <legend>Event types (none checked: all)</legend>
          {errors.eventTypes ? <span className="field-error">{errors.eventTypes}</span> : null}
          <div className="checks">
            {choices.map((type) => (
              <label key={type}>
                <input type="checkbox" name="eventTypes" value={type} /> {type}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="actions">
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={recover.busy}>
            Recover
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The endpoint's latest recovery, followed while its job is queued or running. */
export function LatestRecovery({ endpointId, version }: { endpointId: string; version: number }) {
  const [result, refetch] = useQuery({
    query: LatestRecoveryQuery,
    variables: { endpointId },
  });
  useEffect(() => {
    if (version > 0) refetch({ requestPolicy: 'network-only' });
  }, [version, refetch]);
  const recovery = result.data?.webhookRecoveries.items[0];
  usePollWhile(recovery?.status === 'queued' || recovery?.status === 'running', () =>
    refetch({ requestPolicy: 'network-only' }),
  );
  if (result.error) return <ErrorAlert error={fromCombined(result.error)} />;
  if (!recovery) return null;
  return (
    <section aria-labelledby="latest-recovery">
      <h2 id="latest-recovery">Latest recovery</h2>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <Status value={recovery.status} />
          {recovery.errorMessage ? ` ${recovery.errorMessage}` : null}
        </dd>
        <dt>Progress</dt>
        <dd>
          <progress
            max={recovery.total ?? 1}
            value={recovery.total === null ? 0 : recovery.done}
            aria-label="Recovery progress"
          />{' '}
          {recovery.done} of {recovery.total ?? '…'} gone through, {recovery.queued} re-sent
        </dd>
        <dt>Window</dt>
        <dd>
          <When at={recovery.since} /> to <When at={recovery.until} />
          {recovery.eventTypes.length > 0 ? ` (${recovery.eventTypes.join(', ')})` : ' (all event types)'}
        </dd>
        <dt>Asked</dt>
        <dd>
          <When at={recovery.createdAt} />
        </dd>
      </dl>
    </section>
  );
}
