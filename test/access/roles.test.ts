import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StaffRole } from '../../prisma/generated/client/enums';
import { roleScopes } from '../../src/access/roles';
import { allScopePairs, type ScopeResource, scopeActions, scopeResources } from '../../src/access/scopes';
import { declaredScope } from '../../src/field-extensions';
import { schema } from '../../src/schema';

/** docs/design.md "Who may do what", and the README's copy of the role table. */

const roles: StaffRole[] = ['OWNER', 'ADMIN', 'STAFF'];
const holds = (role: StaffRole, pair: string) => roleScopes(role).has(pair);

describe('the role table', () => {
  it.each(['OWNER', 'ADMIN'] as const)('gives an %s every pair of the store', (role) => {
    expect(allScopePairs().filter((pair) => !holds(role, pair))).toEqual([]);
  });

  it('lets STAFF read the catalogue, orders and customers, and create and update products, orders and customers', () => {
    for (const resource of ['PRODUCTS', 'CATEGORIES', 'ORDERS', 'CUSTOMERS']) {
      expect(holds('STAFF', `${resource}:READ`)).toBe(true);
    }
    for (const resource of ['PRODUCTS', 'ORDERS', 'CUSTOMERS']) {
      expect([holds('STAFF', `${resource}:WRITE`), holds('STAFF', `${resource}:UPDATE`)]).toEqual([
        true,
        true,
      ]);
    }
  });

  it('gives STAFF no keys, webhooks, settings, staff or deletes', () => {
    const granted = [...roleScopes('STAFF')];
    expect(granted.filter((pair) => pair.endsWith(':DELETE'))).toEqual([]);
    expect(granted.filter((pair) => /^(API_KEYS|STORE_SETTINGS|STAFF):/.test(pair))).toEqual([]);
  });
});

/** The resources some root field declares; the other scope resources have no operations yet. */
function resourcesInUse(): Set<string> {
  const fields = [schema.getQueryType(), schema.getMutationType()].flatMap((type) =>
    Object.values(type?.getFields() ?? {}),
  );
  return new Set(fields.map((field) => declaredScope(field)?.split(':')[0]).filter(Boolean) as string[]);
}

const cell = (role: StaffRole, resources: ScopeResource[]) => {
  const actions = scopeActions.filter((action) =>
    resources.every((resource) => holds(role, `${resource}:${action}`)),
  );
  return actions.length === scopeActions.length ? 'all' : actions.length ? actions.join(', ') : '—';
};

/** The role table as README "Authentication" prints it (inside a list item, so indented). */
function roleTable(): string {
  const inUse = resourcesInUse();
  const used = scopeResources.filter((resource) => inUse.has(resource));
  const others = scopeResources.filter((resource) => !inUse.has(resource));
  const row = (label: string, resources: ScopeResource[]) =>
    `| ${label} | ${roles.map((role) => cell(role, resources)).join(' | ')} |`;
  return [
    `| Resource | ${roles.join(' | ')} |`,
    `|---|${roles.map(() => '---').join('|')}|`,
    ...used.map((resource) => row(`\`${resource}\``, [resource])),
    row(`the other scope resources (no operations yet: ${others.join(', ')})`, others),
  ]
    .map((line) => `  ${line}`)
    .join('\n');
}

it('is printed in README "Authentication"', () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const table = roleTable();
  if (!readme.includes(table)) {
    throw new Error(`README.md should contain the role table of src/access/roles.ts:\n\n${table}\n`);
  }
  // Rows of the other resources must agree among themselves to share a row.
  const others = scopeResources.filter((resource) => !resourcesInUse().has(resource));
  for (const role of roles) {
    expect(new Set(others.map((resource) => cell(role, [resource])))).toEqual(new Set([cell(role, others)]));
  }
});
