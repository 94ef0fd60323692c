import { useQuery } from 'urql';
import { usePagedFilters } from '../components/filters';
import { ListView, NotYours } from '../components/list';
import { When } from '../components/ui';
import { graphql } from '../graphql';
import { can, useSession } from '../session';

const AuditQuery = graphql(`
  query Audit($page: Int, $action: String) {
    auditLog(page: $page, limit: 25, action: $action) {
      items { id action actorType actorId targetType targetId ip createdAt details }
      pagination { totalResults currentPage lastPage }
    }
  }
`);

/** The audit log, newest first, filtered by action (`api_key.created`, `staff.updated`, …). */
export function AuditPage() {
  const { session } = useSession();
  const allowed = session ? can(session, 'API_KEYS', 'READ') : false;
  const { page, setPage, filters, change } = usePagedFilters({ action: '' });
  const { action } = filters;
  const [result] = useQuery({
    query: AuditQuery,
    variables: { page, action: action || null },
    pause: !allowed,
  });
  if (!session) return null;
  if (!allowed)
    return (
      <NotYours title="Audit log">
        <p>
          The audit log is for the store's owners and admins. Your role ({session.staff.role}) does not
          include it.
        </p>
      </NotYours>
    );
  return (
    <>
      <h1>Audit log</h1>
      <form
        className="filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          change({ action: String(new FormData(e.currentTarget).get('action') ?? '').trim() });
        }}
      >
        <label>
          Action <input name="action" defaultValue={action} placeholder="api_key.created" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ListView
        what="Audit entries"
        page={result.data?.auditLog}
        fetching={result.fetching}
        error={result.error}
        empty="No entries match."
        onPage={setPage}
      >
        {(items) => (
          <table>
            <caption className="sr-only">Audit log</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">By</th>
                <th scope="col">Target</th>
                <th scope="col">IP</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry.id}>
                  <th scope="row">
                    <When at={entry.createdAt} />
                  </th>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    {entry.actorType}
                    <Id value={entry.actorId} />
                  </td>
                  <td>
                    {entry.targetType ?? '—'}
                    <Id value={entry.targetId} />
                  </td>
                  <td>{entry.ip ?? '—'}</td>
                  <td>
                    <Details value={entry.details} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

/** An entry's details as `key: value` lines; long values cut, the whole JSON one click away. */
function Details({ value }: { value: unknown }) {
  const entries = value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
  if (entries.length === 0) return <span className="muted">—</span>;
  const text = (v: unknown) => {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > 60 ? `${s.slice(0, 60)}…` : s;
  };
  return (
    <details>
      <summary>
        {entries
          .slice(0, 2)
          .map(([k, v]) => `${k}: ${text(v)}`)
          .join(', ')}
        {entries.length > 2 ? ', …' : ''}
      </summary>
      <pre className="payload">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** An id, shortened for the table; the whole id is its title and is selectable for copying. */
const Id = ({ value }: { value: string | null }) =>
  value ? (
    <div className="muted id" title={value}>
      {value.length > 16 ? `${value.slice(0, 16)}…` : value}
    </div>
  ) : null;
