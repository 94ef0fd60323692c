import { type FormEvent, type ReactNode, useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { ListView, NotYours } from '../components/list';
import { useAction } from '../components/mutation';
import { Dialog, ErrorAlert, Field, SecretOnce } from '../components/ui';
import { graphql } from '../graphql';
import { can, type Session, useSession } from '../session';
import { RateField, rateFromForm } from './endpoint-rate';

const EndpointsQuery = graphql(`
  query Endpoints($page: Int) {
    webhookEndpoints(page: $page, limit: 25, sortBy: createdAt, sortDirection: asc) {
      items { id url description events isActive disabledAt disabledReason consecutiveFailures }
      pagination { totalResults currentPage lastPage }
    }
    webhookEndpointLimit
  }
`);

const EventTypesQuery = graphql(`query EventTypes { webhookEventTypes { type description } }`);

const CreateEndpoint = graphql(`
  mutation CreateEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { id url secret }
  }
`);

/**
 * The webhook sections (owners and admins, on a plan with webhooks): the reason instead of the page
 * when this session or plan has none. Shared by the endpoint and delivery pages.
 */
export function WebhooksGate({
  title,
  children,
}: {
  title: string;
  children: (session: Session) => ReactNode;
}) {
  const { session } = useSession();
  if (!session) return null;
  if (!can(session, 'STORE_SETTINGS', 'READ'))
    return (
      <NotYours title={title}>
        <p>
          Webhooks are managed by the store's owners and admins. Your role ({session.staff.role}) does not
          include them.
        </p>
      </NotYours>
    );
  if (!session.store.canAccessWebhooks)
    return (
      <NotYours title={title}>
        <p>
          Your store's plan ({session.store.plan}) does not include webhooks. Change to a plan with webhooks
          to send your store's events to your own services.
        </p>
      </NotYours>
    );
  return <>{children(session)}</>;
}

export const WebhooksPage = () => (
  <WebhooksGate title="Webhooks">{(session) => <Endpoints session={session} />}</WebhooksGate>
);

/** Endpoints: URL, events, status (and why it is disabled), failures; the endpoint limit in view. */
function Endpoints({ session }: { session: Session }) {
  const [page, setPage] = useState(1);
  const [result, refetch] = useQuery({ query: EndpointsQuery, variables: { page } });
  const data = result.data;
  const count = data?.webhookEndpoints.pagination.totalResults ?? 0;
  const limit = data?.webhookEndpointLimit;
  return (
    <>
      <h1>Webhooks</h1>
      <div className="filters">
        {limit != null ? (
          <p className="limit">
            {count} of {limit} endpoints in use
          </p>
        ) : null}
        {can(session, 'STORE_SETTINGS', 'WRITE') && limit != null ? (
          count < limit ? (
            <AddEndpointDialog onAdded={() => refetch({ requestPolicy: 'network-only' })} />
          ) : (
            <p className="muted">The limit is reached: delete an endpoint to add another.</p>
          )
        ) : null}
      </div>
      <ListView
        what="Endpoints"
        page={data?.webhookEndpoints}
        fetching={result.fetching}
        error={result.error}
        empty="No endpoints yet. Add one to receive your store's events."
        onPage={setPage}
      >
        {(items) => (
          <table>
            <caption className="sr-only">Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Consecutive failures</th>
              </tr>
            </thead>
            <tbody>
              {items.map((endpoint) => (
                <tr key={endpoint.id}>
                  <th scope="row">
                    <Link href={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                    {endpoint.description ? <div className="muted">{endpoint.description}</div> : null}
                  </th>
                  <td>{endpoint.events.join(', ')}</td>
                  <td>
                    {endpoint.isActive ? (
                      <span className="status status-active">active</span>
                    ) : (
                      <>
                        <span className="status status-disabled">disabled</span>
                        {endpoint.disabledReason ? (
                          <div className="muted">{endpoint.disabledReason}</div>
                        ) : null}
                      </>
                    )}
                  </td>
                  <td>{endpoint.consecutiveFailures}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

/** Add endpoint: the server judges the URL (https only, no private hosts) and says why beside the field. */
function AddEndpointDialog({ onAdded }: { onAdded: () => void }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [types] = useQuery({ query: EventTypesQuery, pause: !open });
  const create = useAction(CreateEndpoint);
  const errors = create.error?.fields ?? {};
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const created = await create.run({
      input: {
        url: String(form.get('url') ?? '').trim(),
        description: String(form.get('description') ?? '').trim() || undefined,
        rateLimitPerSecond: rateFromForm(form),
        events: form.getAll('events').map(String),
      },
    });
    if (created) {
      setSecret(created.createWebhookEndpoint.secret);
      onAdded();
    }
  };
  return (
    <Dialog
      title={secret ? 'Endpoint added' : 'Add endpoint'}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setSecret(null);
          create.clear();
        }
      }}
      trigger={
        <button type="button" className="primary">
          Add endpoint
        </button>
      }
    >
      {secret ? (
        <>
          <SecretOnce label="Signing secret" secret={secret} />
          <div className="actions">
            <button type="button" className="primary" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorAlert error={create.error} />
          <Field label="URL" name="url" error={errors.url} hint="https:// on a public host">
            {(a) => <input {...a} type="url" placeholder="https://example.com/webhooks" />}
          </Field>
          <Field label="Description" name="description" error={errors.description}>
            {(a) => <input {...a} />}
          </Field>
          <RateField error={errors.rateLimitPerSecond} />
          <fieldset className={errors.events ? 'invalid' : undefined}>
            <legend>Events</legend>
            {errors.events ? <span className="field-error">{errors.events}</span> : null}
            {types.data ? (
              <div className="checks event-checks">
                <label>
                  <input type="checkbox" name="events" value="*" /> All events (*)
                </label>
                {types.data.webhookEventTypes.map(({ type, description }) => (
                  <div key={type} className="event-check">
                    <label>
                      <input
                        type="checkbox"
                        name="events"
                        value={type}
                        aria-describedby={`event-${type.replace('.', '-')}`}
                      />{' '}
                      {type}
                    </label>
                    <span className="hint" id={`event-${type.replace('.', '-')}`}>
                      {description}
                    </span>
                  </div>
                ))}
              </div>
            ) : (
              <p className="muted">Loading event types…</p>
            )}
          </fieldset>
          <div className="actions">
            <button type="submit" className="primary" disabled={create.busy}>
              Add endpoint
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
