import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { useAction } from '../components/mutation';
import { usePollWhile } from '../components/poll';
import { ErrorAlert, Loading, Status, When } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql } from '../graphql';
import { can, type Session } from '../session';
import { WebhooksGate } from './webhooks';

const DeliveryQuery = graphql(`
  query Delivery($id: ID!) {
    webhookDelivery(id: $id) {
      id eventId eventType status attempt httpStatus errorMessage nextRetryAt createdAt deliveredAt exhaustedAt
      payload
      attempts { id number status httpStatus durationMs responseBody errorMessage createdAt }
    }
  }
`);

const ResendDelivery = graphql(`
  mutation ResendDelivery($id: ID!) { resendWebhookDelivery(id: $id) { id status attempt nextRetryAt } }
`);

/** A receiver's answer as the log keeps it, cut for the table: the whole text is on the delivery's page. */
const EXCERPT = 300;

/** The JSON envelope as sent, indented for reading (the bytes sent are unchanged). */
const pretty = (payload: string) => {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
};

export const DeliveryPage = ({ endpointId, id }: { endpointId: string; id: string }) => (
  <WebhooksGate title="Delivery">
    {(session) => <Delivery endpointId={endpointId} id={id} session={session} />}
  </WebhooksGate>
);

/** One delivery: the request body sent, every attempt with its response, and Resend. */
function Delivery({ endpointId, id, session }: { endpointId: string; id: string; session: Session }) {
  const [result, refetch] = useQuery({ query: DeliveryQuery, variables: { id } });
  const resend = useAction(ResendDelivery);
  const [notice, setNotice] = useState<string | null>(null);
  const delivery = result.data?.webhookDelivery;
  usePollWhile(delivery?.status === 'pending', () => refetch({ requestPolicy: 'network-only' }));
  if (!delivery)
    return (
      <>
        <h1>Delivery</h1>
        {result.fetching ? <Loading what="the delivery" /> : null}
        <ErrorAlert error={result.error ? fromCombined(result.error) : null} />
      </>
    );
  return (
    <>
      <p className="crumbs">
        <Link href="/webhooks">Webhooks</Link> › <Link href={`/webhooks/${endpointId}`}>Endpoint</Link>
      </p>
      <h1>Delivery of {delivery.eventType}</h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <Status value={delivery.status} />
        </dd>
        <dt>Delivery id</dt>
        <dd>
          <code>{delivery.id}</code>
        </dd>
        <dt>Event id</dt>
        <dd>
          <code>{delivery.eventId}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <When at={delivery.createdAt} />
        </dd>
        <dt>Next retry</dt>
        <dd>
          <When at={delivery.nextRetryAt} />
        </dd>
      </dl>
      {can(session, 'STORE_SETTINGS', 'UPDATE') ? (
        <section aria-label="Delivery actions" className="toolbar">
          <button
            type="button"
            className="primary"
            disabled={resend.busy}
            onClick={async () => {
              if (await resend.run({ id })) {
                setNotice('Resent: the same event, with the same delivery id, is on its way again.');
                refetch({ requestPolicy: 'network-only' });
              }
            }}
          >
            Resend
          </button>
        </section>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorAlert error={resend.error} />
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways on a phone takes focus, so the keyboard can scroll it */}
      <section aria-labelledby="attempts" tabIndex={0}>
        <h2 id="attempts">Attempts</h2>
        {delivery.attempts.length === 0 ? (
          <p className="empty">No attempt yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">Response code</th>
                <th scope="col">Duration</th>
                <th scope="col">At</th>
                <th scope="col">Response</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt) => {
                const text = attempt.responseBody ?? attempt.errorMessage ?? '';
                return (
                  <tr key={attempt.id}>
                    <th scope="row">{attempt.number}</th>
                    <td>
                      <Status value={attempt.status} />
                    </td>
                    <td>{attempt.httpStatus === 0 ? 'no response' : attempt.httpStatus}</td>
                    <td>{attempt.durationMs} ms</td>
                    <td>
                      <When at={attempt.createdAt} />
                    </td>
                    <td>
                      <code className="excerpt">
                        {text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text || '—'}
                      </code>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="request-body">
        <h2 id="request-body">Request body</h2>
        {delivery.payload === null ? (
          // The API shows an event's data only with its resource's read right (owners and admins hold all).
          <p>Hidden: showing a {delivery.eventType} event's data needs the read right of its resource.</p>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus for the keyboard to scroll it
          <pre className="payload" tabIndex={0}>
            {pretty(delivery.payload)}
          </pre>
        )}
      </section>
    </>
  );
}
