import { useState } from 'react';
import { useQuery } from 'urql';
import { useSearch } from 'wouter';
import { NotYours } from '../components/list';
import { Empty, ErrorAlert, Loading, When } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql } from '../graphql';
import { can, useSession } from '../session';

const RequestsQuery = graphql(`
  query Requests($keyId: ID, $statusClass: RequestStatusClass, $route: String, $requestId: String, $after: String) {
    requestLog(keyId: $keyId, statusClass: $statusClass, route: $route, requestId: $requestId, after: $after, limit: 25) {
      items { id at keyId staffUserId door method route status errorCode durationMs requestId clientIp cost }
      nextCursor
    }
  }
`);

const STATUS_CLASSES = [
  ['', 'Any status'],
  ['SUCCESS', '2xx success'],
  ['REDIRECTION', '3xx redirection'],
  ['CLIENT_ERROR', '4xx client error'],
  ['SERVER_ERROR', '5xx server error'],
] as const;
type StatusClass = 'SUCCESS' | 'REDIRECTION' | 'CLIENT_ERROR' | 'SERVER_ERROR';

interface Filters {
  keyId: string;
  statusClass: string;
  route: string;
  requestId: string;
}

/**
 * The request log (README "Request log"): the store's authenticated requests, newest first, a page
 * at a time from the server, filtered by key, status class, route or operation and request id. The
 * keys page links here with `?keyId=`; an error's request id finds its request.
 */
export function RequestsPage() {
  const { session } = useSession();
  const allowed = session ? can(session, 'API_KEYS', 'READ') : false;
  const search = new URLSearchParams(useSearch());
  const [filters, setFilters] = useState<Filters>({
    keyId: search.get('keyId') ?? '',
    statusClass: '',
    route: '',
    requestId: search.get('requestId') ?? '',
  });
  // The cursors of the pages before this one: "Newer" goes back one.
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1) ?? null;
  const [result] = useQuery({
    query: RequestsQuery,
    variables: {
      keyId: filters.keyId || null,
      statusClass: (filters.statusClass || null) as StatusClass | null,
      route: filters.route || null,
      requestId: filters.requestId || null,
      after,
    },
    pause: !allowed,
  });
  if (!session) return null;
  if (!allowed)
    return (
      <NotYours title="Requests">
        <p>
          The request log is for the store's owners and admins. Your role ({session.staff.role}) does not
          include it.
        </p>
      </NotYours>
    );
  const page = result.data?.requestLog;
  return (
    <>
      <h1>Requests</h1>
      <form
        className="filters"
        aria-label="Filter requests"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const text = (name: string) => String(form.get(name) ?? '').trim();
          setFilters({
            keyId: text('keyId'),
            statusClass: text('statusClass'),
            route: text('route'),
            requestId: text('requestId'),
          });
          setCursors([]);
        }}
      >
        <label>
          Request id <input name="requestId" defaultValue={filters.requestId} placeholder="req_…" />
        </label>
        <label>
          Key id <input name="keyId" defaultValue={filters.keyId} />
        </label>
        <label>
          Status{' '}
          <select name="statusClass" defaultValue={filters.statusClass}>
            {STATUS_CLASSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Route or operation{' '}
          <input name="route" defaultValue={filters.route} placeholder="/api/v1/product/{id}" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorAlert error={result.error ? fromCombined(result.error) : null} />
      {!page && result.fetching ? <Loading what="requests" /> : null}
      {page && page.items.length === 0 ? (
        <Empty>No requests match (entries are kept for the retention period).</Empty>
      ) : null}
      {page && page.items.length > 0 ? (
        <>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: its rows hold no link or button, so the region that scrolls sideways takes focus itself, as the order's lines do */}
          <section className="table-wrap" tabIndex={0} aria-label="Requests, newest first">
            <table>
              <caption className="sr-only">Requests, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Request</th>
                  <th scope="col">Status</th>
                  <th scope="col">By</th>
                  <th scope="col">Time</th>
                  <th scope="col">Request id</th>
                  <th scope="col">IP</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((entry) => (
                  <tr key={entry.id}>
                    <th scope="row">
                      <When at={entry.at} />
                    </th>
                    <td>
                      <span className="muted">{entry.door}</span> {entry.method} <code>{entry.route}</code>
                    </td>
                    <td>
                      {entry.status}
                      {entry.errorCode ? <div className="muted">{entry.errorCode}</div> : null}
                    </td>
                    <td className="id">{entry.keyId ?? entry.staffUserId ?? '—'}</td>
                    <td>
                      {entry.durationMs.toFixed(1)} ms
                      {entry.cost != null ? <div className="muted">cost {entry.cost}</div> : null}
                    </td>
                    <td className="id">
                      <code>{entry.requestId}</code>
                    </td>
                    <td>{entry.clientIp ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <nav className="pager" aria-label="Requests pages">
            <button
              type="button"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Newer
            </button>
            <button
              type="button"
              disabled={!page.nextCursor}
              onClick={() => page.nextCursor && setCursors([...cursors, page.nextCursor])}
            >
              Older
            </button>
          </nav>
        </>
      ) : null}
    </>
  );
}
