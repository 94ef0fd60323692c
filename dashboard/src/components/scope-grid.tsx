import { useId } from 'react';

const ACTIONS = ['READ', 'WRITE', 'UPDATE', 'DELETE'] as const;

/** `API_KEYS` → `API keys`, `STORE_SETTINGS` → `Store settings`. */
export const resourceName = (resource: string) => {
  const words = resource.toLowerCase().split('_');
  const first = words[0] === 'api' ? 'API' : `${words[0]?.[0]?.toUpperCase()}${words[0]?.slice(1)}`;
  return [first, ...words.slice(1)].join(' ');
};

/** "Products READ": how a scope reads everywhere in the dashboard. */
export const scopeLabel = (resource: string, action: string) => `${resourceName(resource)} ${action}`;

/**
 * One checkbox per resource and action, each labelled like "Products READ". The rows are the rights
 * the session holds (the API refuses granting anything else), so nothing here copies the scope list.
 */
export function ScopeGrid({
  rights,
  error,
}: {
  rights: ReadonlyArray<{ resource: string; actions: readonly string[] }>;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset
      className={`scope-grid${error ? ' invalid' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>Scopes</legend>
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
      <table>
        <thead>
          <tr>
            <th scope="col">Resource</th>
            {ACTIONS.map((action) => (
              <th scope="col" key={action}>
                {action}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rights.map((right) => (
            <tr key={right.resource}>
              <th scope="row">{resourceName(right.resource)}</th>
              {ACTIONS.map((action) => (
                <td key={action}>
                  {right.actions.includes(action) ? (
                    <input
                      type="checkbox"
                      name="scope"
                      value={`${right.resource}:${action}`}
                      aria-label={scopeLabel(right.resource, action)}
                    />
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </fieldset>
  );
}

type Scopes = ReadonlyArray<{ resource: string; actions: readonly string[] }>;

/** A key's scopes as labels; "Every scope" when it holds every action of every resource there is. */
export function ScopeList({ scopes, every }: { scopes: Scopes; every: Scopes }) {
  const full =
    scopes.length === every.length &&
    every.every((right) => {
      const held = scopes.find((scope) => scope.resource === right.resource);
      return held && right.actions.every((action) => held.actions.includes(action));
    });
  if (full) return <span>Every scope</span>;
  return (
    <>
      {scopes.map((scope) => (
        <span key={scope.resource}>{scopeLabel(scope.resource, scope.actions.join(' '))}</span>
      ))}
    </>
  );
}
