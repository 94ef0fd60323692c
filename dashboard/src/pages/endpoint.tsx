import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation } from 'wouter';
import { FilterSelect, usePagedFilters } from '../components/filters';
import { ListView } from '../components/list';
import { useAction } from '../components/mutation';
import { usePollWhile } from '../components/poll';
import { ConfirmButton, Dialog, ErrorAlert, Loading, SecretOnce, Status, When } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql } from '../graphql';
import { can, type Session } from '../session';
import { EndpointHealth } from './endpoint-health';
import { EndpointRateDialog, rateText } from './endpoint-rate';
import { LatestRecovery, RecoverDialog } from './endpoint-recover';
import { WebhooksGate } from './webhooks';

const EndpointQuery = graphql(`
  query Endpoint($id: ID!) {
    webhookEndpoint(id: $id) {
      id url description events isActive disabledAt disabledReason consecutiveFailures createdAt
      rateLimitPerSecond
    }
  }
`);

const DeliveriesQuery = graphql(`
  query Deliveries($endpointId: ID!, $page: Int, $status: WebhookDeliveryStatus) {
    webhookDeliveries(endpointId: $endpointId, page: $page, limit: 20, status: $status) {
      items {
        id eventType status attempt httpStatus nextRetryAt createdAt deliveredAt exhaustedAt
        attempts { id durationMs }
      }
      pagination { totalResults currentPage lastPage }
    }
  }
`);

const TestEndpoint = graphql(`mutation TestEndpoint($id: ID!) { testWebhookEndpoint(id: $id) { eventId } }`);
const RotateSecret = graphql(
  `mutation RotateSecret($id: ID!) { rotateWebhookEndpointSecret(id: $id) { id secret } }`,
);
const SetEndpointActive = graphql(`
  mutation SetEndpointActive($id: ID!, $isActive: Boolean!) {
    updateWebhookEndpoint(id: $id, input: { isActive: $isActive }) { id isActive disabledAt disabledReason }
  }
`);
const ReplayExhausted = graphql(`
  mutation ReplayExhausted($id: ID!) { replayExhaustedWebhookDeliveries(id: $id) { replayed } }
`);
const DeleteEndpoint = graphql(`mutation DeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }`);

/** How long the log follows the worker after an action. */
const FOLLOW_MS = 30_000;

const deliveryStatuses = ['pending', 'success', 'failed', 'exhausted'] as const;
type DeliveryStatus = (typeof deliveryStatuses)[number];

export const EndpointPage = ({ id }: { id: string }) => (
  <WebhooksGate title="Webhook endpoint">{(session) => <Endpoint id={id} session={session} />}</WebhooksGate>
);

/** One endpoint: test, rotate its secret, disable or re-activate it, and its delivery log. */
function Endpoint({ id, session }: { id: string; session: Session }) {
  const [result, refetch] = useQuery({ query: EndpointQuery, variables: { id } });
  const [, navigate] = useLocation();
  const [notice, setNotice] = useState<string | null>(null);
  const [logVersion, setLogVersion] = useState(0);
  const [recoveryVersion, setRecoveryVersion] = useState(0);
  const test = useAction(TestEndpoint);
  const toggle = useAction(SetEndpointActive);
  const replay = useAction(ReplayExhausted);
  const remove = useAction(DeleteEndpoint);
  const endpoint = result.data?.webhookEndpoint;
  if (!endpoint)
    return (
      <>
        <h1>Webhook endpoint</h1>
        {result.fetching ? <Loading what="the endpoint" /> : null}
        <ErrorAlert error={result.error ? fromCombined(result.error) : null} />
      </>
    );
  const writable = can(session, 'STORE_SETTINGS', 'UPDATE');
  const reloadLog = () => setLogVersion((v) => v + 1);
  return (
    <>
      <p className="crumbs">
        <Link href="/webhooks">Webhooks</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <dl className="facts">
        <dt>URL</dt>
        <dd>
          <code>{endpoint.url}</code>
        </dd>
        {endpoint.description ? (
          <>
            <dt>Description</dt>
            <dd>{endpoint.description}</dd>
          </>
        ) : null}
        <dt>Events</dt>
        <dd>{endpoint.events.join(', ')}</dd>
        <dt>Status</dt>
        <dd>
          {endpoint.isActive
            ? 'active'
            : `disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`}
        </dd>
        <dt>Max deliveries per second</dt>
        <dd>{rateText(endpoint.rateLimitPerSecond)}</dd>
        <dt>Consecutive failures</dt>
        <dd>{endpoint.consecutiveFailures}</dd>
      </dl>
      {writable ? (
        <section aria-label="Endpoint actions" className="toolbar">
          <button
            type="button"
            disabled={test.busy || !endpoint.isActive}
            onClick={async () => {
              if (await test.run({ id })) {
                setNotice('A webhook.test event is on its way; it appears in the delivery log below.');
                reloadLog();
              }
            }}
          >
            Send test event
          </button>
          <RotateSecretDialog id={id} />
          <EndpointRateDialog
            id={id}
            rate={endpoint.rateLimitPerSecond}
            onChanged={() => refetch({ requestPolicy: 'network-only' })}
          />
          <button
            type="button"
            disabled={toggle.busy}
            onClick={async () => {
              if (await toggle.run({ id, isActive: !endpoint.isActive })) {
                setNotice(endpoint.isActive ? 'The endpoint is disabled.' : 'The endpoint is active again.');
                refetch({ requestPolicy: 'network-only' });
              }
            }}
          >
            {endpoint.isActive ? 'Disable' : 'Re-activate'}
          </button>
          <button
            type="button"
            disabled={replay.busy}
            onClick={async () => {
              const done = await replay.run({ id });
              if (done) {
                const n = done.replayExhaustedWebhookDeliveries.replayed;
                setNotice(`${n} exhausted ${n === 1 ? 'delivery was' : 'deliveries were'} re-queued.`);
                reloadLog();
              }
            }}
          >
            Replay exhausted deliveries
          </button>
          <RecoverDialog
            endpointId={id}
            events={endpoint.events}
            onQueued={() => {
              setNotice('The recovery is queued: its progress shows below.');
              setRecoveryVersion((v) => v + 1);
              reloadLog();
            }}
          />
          {can(session, 'STORE_SETTINGS', 'DELETE') ? (
            <ConfirmButton
              label="Delete endpoint"
              danger
              title="Delete this endpoint?"
              body="It receives no more events, and its delivery log is deleted with it."
              confirm="Delete endpoint"
              onConfirm={async () => {
                const done = await remove.run({ id });
                if (done) navigate('/webhooks');
                return done !== null;
              }}
            >
              <ErrorAlert error={remove.error} />
            </ConfirmButton>
          ) : null}
        </section>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorAlert error={test.error ?? toggle.error ?? replay.error} />
      <LatestRecovery endpointId={id} version={recoveryVersion} />
      <EndpointHealth endpointId={id} timeZone={session.store.timezone} />
      <DeliveryLog endpointId={id} version={logVersion} />
    </>
  );
}

function RotateSecretDialog({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useAction(RotateSecret);
  return (
    <Dialog
      title={secret ? 'Signing secret rotated' : 'Rotate signing secret'}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setSecret(null);
          rotate.clear();
        }
      }}
      trigger={<button type="button">Rotate secret</button>}
    >
      {secret ? (
        <>
          <SecretOnce label="New signing secret" secret={secret} />
          <div className="actions">
            <button type="button" className="primary" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </>
      ) : (
        <>
          <p>
            The current secret stops signing at once: update your receiver with the new one straight away.
          </p>
          <ErrorAlert error={rotate.error} />
          <div className="actions">
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="primary"
              disabled={rotate.busy}
              onClick={async () => {
                const done = await rotate.run({ id });
                if (done) setSecret(done.rotateWebhookEndpointSecret.secret);
              }}
            >
              Rotate secret
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

/** The delivery log: filter by status, a page at a time, refreshed while deliveries are under way. */
function DeliveryLog({ endpointId, version }: { endpointId: string; version: number }) {
  const { page, setPage, filters, change } = usePagedFilters({ status: '' as DeliveryStatus | '' });
  const [result, refetch] = useQuery({
    query: DeliveriesQuery,
    variables: { endpointId, page, status: filters.status || null },
  });
  // After an action (test, replay) the new deliveries come from the worker: follow them for a while.
  const [followUntil, setFollowUntil] = useState(0);
  useEffect(() => {
    if (version === 0) return;
    setFollowUntil(Date.now() + FOLLOW_MS);
    refetch({ requestPolicy: 'network-only' });
  }, [version, refetch]);
  const items = result.data?.webhookDeliveries.items ?? [];
  usePollWhile(items.some((d) => d.status === 'pending') || Date.now() < followUntil, () =>
    refetch({ requestPolicy: 'network-only' }),
  );
  return (
    <section aria-labelledby="delivery-log">
      <h2 id="delivery-log">Delivery log</h2>
      <div className="filters">
        <FilterSelect
          label="Status"
          value={filters.status}
          options={deliveryStatuses}
          any
          onChange={(status) => change({ status })}
        />
        <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })}>
          Refresh
        </button>
      </div>
      <ListView
        what="Deliveries"
        page={result.data?.webhookDeliveries}
        fetching={result.fetching}
        error={result.error}
        empty="No deliveries match."
        onPage={setPage}
      >
        {(deliveries) => (
          <table>
            <caption className="sr-only">Deliveries</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last response</th>
                <th scope="col">Duration</th>
                <th scope="col">Next retry</th>
                <th scope="col">Created</th>
                <th scope="col">Delivered</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => {
                const last = delivery.attempts[delivery.attempts.length - 1];
                return (
                  <tr key={delivery.id}>
                    <th scope="row">
                      <Link href={`/webhooks/${endpointId}/deliveries/${delivery.id}`}>
                        {delivery.eventType}
                      </Link>
                    </th>
                    <td>
                      <Status value={delivery.status} />
                    </td>
                    <td>{delivery.attempts.length}</td>
                    <td>{delivery.httpStatus ?? '—'}</td>
                    <td>{last ? `${last.durationMs} ms` : '—'}</td>
                    <td>
                      <When at={delivery.nextRetryAt} />
                    </td>
                    <td>
                      <When at={delivery.createdAt} />
                    </td>
                    <td>
                      <When at={delivery.deliveredAt ?? delivery.exhaustedAt} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </ListView>
    </section>
  );
}
