import { type FormEvent, type ReactNode, useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { FilterSelect, usePagedFilters } from '../components/filters';
import { ListView, NotYours } from '../components/list';
import { useAction } from '../components/mutation';
import { ScopeGrid, ScopeList } from '../components/scope-grid';
import { ConfirmButton, Dialog, ErrorAlert, Field, SecretOnce, Status, When } from '../components/ui';
import { graphql, type ResultOf } from '../graphql';
import { isoFromLocal } from '../local-time';
import { can, type Session, useSession } from '../session';

const KeyFields = graphql(`
  fragment KeyRow on ApiKey {
    keyId keyName lastFour environment status isActive lastUsedAt expiresAt usageCount usageLimit notices
    scopes { resource actions }
  }
`);

const KeysQuery = graphql(
  `
  query Keys($page: Int, $status: ApiKeyStatus) {
    apiKeys(page: $page, limit: 25, status: $status) {
      items { ...KeyRow }
      pagination { totalResults currentPage lastPage }
    }
  }
`,
  [KeyFields],
);

const CreateKey = graphql(`
  mutation CreateKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { keyId keyName secret } }
`);
const RotateKey = graphql(`
  mutation RotateKey($keyId: ID!, $grace: Int) {
    rotateApiKey(keyId: $keyId, input: { gracePeriodSeconds: $grace }) { keyId keyName secret }
  }
`);
const RevokeKey = graphql(`mutation RevokeKey($keyId: ID!) { revokeApiKey(keyId: $keyId) { keyId status } }`);
const SetKeyActive = graphql(`
  mutation SetKeyActive($keyId: ID!, $isActive: Boolean!) {
    updateApiKey(keyId: $keyId, input: { isActive: $isActive }) { keyId status isActive }
  }
`);

type Key = ResultOf<typeof KeyFields>;
const environments = ['development', 'staging', 'production'] as const;
type Environment = (typeof environments)[number];
const keyStatuses = ['active', 'inactive', 'revoked'] as const;
type KeyStatus = (typeof keyStatuses)[number];

/** API keys (owners and admins, on a plan with API access): list, create, rotate, revoke, toggle. */
export function KeysPage() {
  const { session } = useSession();
  const allowed = session ? can(session, 'API_KEYS', 'READ') && session.store.apiAccess : false;
  const { page, setPage, filters, change } = usePagedFilters({ status: '' as KeyStatus | '' });
  const [result, refetch] = useQuery({
    query: KeysQuery,
    variables: { page, status: filters.status || null },
    pause: !allowed,
  });
  if (!session) return null;
  if (!can(session, 'API_KEYS', 'READ'))
    return (
      <NotYours title="API keys">
        <p>
          API keys are managed by the store's owners and admins. Your role ({session.staff.role}) does not
          include them; ask an owner or admin if you need one.
        </p>
      </NotYours>
    );
  if (!session.store.apiAccess)
    return (
      <NotYours title="API keys">
        <p>
          Your store's plan ({session.store.plan}) does not include API access, so it has no API keys. Change
          to a plan with API access to create keys for your integrations.
        </p>
      </NotYours>
    );
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <>
      <h1>API keys</h1>
      <div className="filters">
        <FilterSelect
          label="Status"
          value={filters.status}
          options={keyStatuses}
          any
          onChange={(status) => change({ status })}
        />
        {can(session, 'API_KEYS', 'WRITE') ? <CreateKeyDialog session={session} onCreated={reload} /> : null}
      </div>
      <ListView
        what="API keys"
        page={result.data?.apiKeys}
        fetching={result.fetching}
        error={result.error}
        empty="No API keys yet."
        onPage={setPage}
      >
        {(items) => (
          <table>
            <caption className="sr-only">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Environment</th>
                <th scope="col">Scopes</th>
                <th scope="col">Status</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Usage</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {items.map((key) => (
                <KeyRow key={key.keyId} apiKey={key} session={session} onChanged={reload} />
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

function KeyRow({ apiKey, session, onChanged }: { apiKey: Key; session: Session; onChanged: () => void }) {
  const revoke = useAction(RevokeKey);
  const toggle = useAction(SetKeyActive);
  const live = apiKey.status !== 'revoked';
  return (
    <tr>
      <th scope="row">
        {apiKey.keyName}
        {apiKey.notices.includes('expiring') ? <NoticeBadge>Expires within 7 days</NoticeBadge> : null}
        {apiKey.notices.includes('usage_threshold') && apiKey.usageLimit ? (
          <NoticeBadge>
            {Math.floor((apiKey.usageCount * 100) / apiKey.usageLimit)} % of limit used
          </NoticeBadge>
        ) : null}
        <div>
          <Link href={`/requests?keyId=${apiKey.keyId}`} aria-label={`Requests of ${apiKey.keyName}`}>
            Requests
          </Link>
        </div>
      </th>
      <td>
        <code>…{apiKey.lastFour}</code>
      </td>
      <td>{apiKey.environment}</td>
      <td className="scopes">
        <ScopeList scopes={apiKey.scopes} every={session.rights} />
      </td>
      <td>
        <Status value={apiKey.status} />
      </td>
      <td>
        <When at={apiKey.lastUsedAt} />
      </td>
      <td>
        <When at={apiKey.expiresAt} />
      </td>
      <td>
        {apiKey.usageCount}
        {apiKey.usageLimit != null ? ` of ${apiKey.usageLimit}` : ''}
      </td>
      <td className="actions">
        {live && can(session, 'API_KEYS', 'UPDATE') ? (
          <>
            <RotateKeyDialog apiKey={apiKey} onRotated={onChanged} />
            <button
              type="button"
              aria-label={`${apiKey.isActive ? 'Deactivate' : 'Activate'} ${apiKey.keyName}`}
              disabled={toggle.busy}
              onClick={async () => {
                if (await toggle.run({ keyId: apiKey.keyId, isActive: !apiKey.isActive })) onChanged();
              }}
            >
              {apiKey.isActive ? 'Deactivate' : 'Activate'}
            </button>
          </>
        ) : null}
        {live && can(session, 'API_KEYS', 'DELETE') ? (
          <ConfirmButton
            label="Revoke"
            name={`Revoke ${apiKey.keyName}`}
            danger
            title={`Revoke ${apiKey.keyName}?`}
            body="Requests with this key are refused from now on (401 API_KEY_REVOKED). This cannot be undone."
            confirm="Revoke key"
            onConfirm={async () => {
              const done = await revoke.run({ keyId: apiKey.keyId });
              if (done) onChanged();
              return done !== null;
            }}
          >
            <ErrorAlert error={revoke.error} />
          </ConfirmButton>
        ) : null}
        <ErrorAlert error={toggle.error} />
      </td>
    </tr>
  );
}

/**
 * A lifecycle notice the key is under (README "Key notices"), under its name so that a phone shows it
 * without scrolling the table: the words say it, the colour only repeats them.
 */
const NoticeBadge = ({ children }: { children: ReactNode }) => <span className="key-notice">{children}</span>;

function CreateKeyDialog({ session, onCreated }: { session: Session; onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [issued, setIssued] = useState<{ keyName: string; secret: string } | null>(null);
  const create = useAction(CreateKey);
  const errors = create.error?.fields ?? {};
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const scopes = new Map<string, string[]>();
    for (const value of form.getAll('scope')) {
      const [resource, action] = String(value).split(':') as [string, string];
      scopes.set(resource, [...(scopes.get(resource) ?? []), action]);
    }
    const created = await create.run({
      input: {
        keyName: text('keyName'),
        environment: text('environment') as Environment,
        scopes: [...scopes].map(([resource, actions]) => ({ resource, actions })) as never,
        ipAllowlist: text('ipAllowlist')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
        expiresAt: isoFromLocal(text('expiresAt')) ?? undefined,
        usageLimit: text('usageLimit') === '' ? undefined : Number(text('usageLimit')),
      },
    });
    if (created) {
      setIssued({ keyName: created.createApiKey.keyName, secret: created.createApiKey.secret });
      onCreated();
    }
  };
  return (
    <Dialog
      title={issued ? `API key ${issued.keyName} created` : 'Create API key'}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setIssued(null);
          create.clear();
        }
      }}
      trigger={
        <button type="button" className="primary">
          Create API key
        </button>
      }
    >
      {issued ? (
        <>
          <SecretOnce label="Your new API key" secret={issued.secret} />
          <div className="actions">
            <button type="button" className="primary" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorAlert error={create.error} />
          <Field label="Name" name="keyName" error={errors.keyName}>
            {(a) => <input {...a} />}
          </Field>
          <Field label="Environment" name="environment" error={errors.environment}>
            {(a) => (
              <select {...a} defaultValue="production">
                {environments.map((env) => (
                  <option key={env} value={env}>
                    {env}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <ScopeGrid rights={session.rights} error={errors.scopes} />
          <Field
            label="IP allowlist"
            name="ipAllowlist"
            error={errors.ipAllowlist}
            hint="One address or CIDR range per line; empty allows any address"
          >
            {(a) => <textarea {...a} rows={3} />}
          </Field>
          <Field label="Expires" name="expiresAt" error={errors.expiresAt} hint="Empty: never">
            {(a) => <input {...a} type="datetime-local" />}
          </Field>
          <Field
            label="Usage limit"
            name="usageLimit"
            error={errors.usageLimit}
            hint="Total requests; empty: none"
          >
            {(a) => <input {...a} inputMode="numeric" />}
          </Field>
          <div className="actions">
            <button type="submit" className="primary" disabled={create.busy}>
              Create key
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

const graceChoices = [
  [0, 'None: the old secret stops now'],
  [3600, '1 hour'],
  [86_400, '24 hours'],
  [604_800, '7 days'],
] as const;

/** Rotate: asks how long the old secret keeps working, then shows the new one once. */
function RotateKeyDialog({ apiKey, onRotated }: { apiKey: Key; onRotated: () => void }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useAction(RotateKey);
  return (
    <Dialog
      title={secret ? `${apiKey.keyName} rotated` : `Rotate ${apiKey.keyName}`}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setSecret(null);
          rotate.clear();
        }
      }}
      trigger={
        <button type="button" aria-label={`Rotate ${apiKey.keyName}`}>
          Rotate
        </button>
      }
    >
      {secret ? (
        <>
          <SecretOnce label="The new secret" secret={secret} />
          <div className="actions">
            <button type="button" className="primary" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </>
      ) : (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            const grace = Number(new FormData(event.currentTarget).get('grace'));
            const rotated = await rotate.run({ keyId: apiKey.keyId, grace });
            if (rotated) {
              setSecret(rotated.rotateApiKey.secret);
              onRotated();
            }
          }}
        >
          <ErrorAlert error={rotate.error} />
          <Field
            label="Grace period"
            name="grace"
            error={rotate.error?.fields.gracePeriodSeconds}
            hint="How long the old secret keeps working, so your integrations can switch"
          >
            {(a) => (
              <select {...a} defaultValue={86_400}>
                {graceChoices.map(([seconds, label]) => (
                  <option key={seconds} value={seconds}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="actions">
            <button type="submit" className="primary" disabled={rotate.busy}>
              Rotate key
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
