import type { ApiKey } from '../../prisma/generated/client/client';
import { planFeatures } from '../access/plans';
import {
  allScopePairs,
  type ScopeAction,
  type ScopeObject,
  type ScopeResource,
  scopeActions,
  scopePair,
  scopeResources,
  toScopeObjects,
} from '../access/scopes';
import type { Db } from '../db/client';
import { AppError, type ErrorDetail, notFound, validationError } from '../errors';
import { type NewApiKeyInput, newApiKeyInput } from '../modules/api-keys/input';
import { issueApiKey } from '../modules/api-keys/issue';
import { MAX_INT4, parseInput } from '../validation';
import { type Command, type CommandInput, command, listOption, stringOption, UsageError } from './args';
import { isoOrDash, table } from './output';

/** `PRODUCTS:READ,WRITE` (any case; `*` for every action) → scope objects, merged per resource. */
export function parseScopeOptions(entries: string[]): ScopeObject[] {
  const details: ErrorDetail[] = [];
  const pairs: string[] = [];
  entries.forEach((entry, index) => {
    const path = `scope.${index}`;
    const match = entry.match(/^\s*([A-Za-z_]+)\s*:\s*([A-Za-z_*,\s]+)$/);
    if (!match) {
      details.push({ path, message: `"${entry}" is not RESOURCE:ACTION[,ACTION], e.g. PRODUCTS:READ,WRITE` });
      return;
    }
    const resource = (match[1] ?? '').toUpperCase() as ScopeResource;
    if (!scopeResources.includes(resource)) {
      details.push({
        path,
        message: `"${entry}": unknown resource ${resource}; one of ${scopeResources.join(', ')}`,
      });
      return;
    }
    for (const word of (match[2] ?? '').split(',')) {
      const action = word.trim().toUpperCase();
      if (action === '*') {
        for (const each of scopeActions) pairs.push(scopePair(resource, each));
      } else if (scopeActions.includes(action as ScopeAction)) {
        pairs.push(scopePair(resource, action as ScopeAction));
      } else {
        details.push({
          path,
          message: `"${entry}": unknown action ${action || '(empty)'}; one of ${scopeActions.join(', ')} or *`,
        });
      }
    }
  });
  if (details.length) throw validationError(details);
  return toScopeObjects(pairs);
}

const ISO_8601 = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO 8601 date (midnight UTC) or date-time; a date-time without an offset is UTC. */
export function parseExpires(value: string): Date {
  const match = value.match(ISO_8601);
  const invalid = () =>
    validationError([
      {
        path: 'expires',
        message: `"${value}" is not an ISO 8601 date or date-time, e.g. 2027-01-31 or 2027-01-31T12:00:00Z`,
      },
    ]);
  if (!match) throw invalid();
  const [, day, time, zone] = match;
  const date = new Date(time ? `${day}T${time}${zone ?? 'Z'}` : `${day}T00:00:00Z`);
  // 2027-02-30 would roll over to March: the calendar day must survive the round trip (in UTC, for Z).
  if (Number.isNaN(date.getTime())) throw invalid();
  if ((!zone || zone.toUpperCase() === 'Z') && date.toISOString().slice(0, 10) !== day) throw invalid();
  return date;
}

function parseUsageLimit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_INT4) {
    throw validationError([
      { path: 'usage-limit', message: `must be a whole number from 1 to ${MAX_INT4}, got "${value}"` },
    ]);
  }
  return Number(value);
}

async function findStore(db: Db, storeId: string) {
  const store = await db.store.findUnique({ where: { id: storeId }, select: { id: true, plan: true } });
  if (!store) throw notFound('Store');
  return store;
}

function keyJson(key: ApiKey, now: Date) {
  return {
    keyId: key.id,
    keyName: key.keyName,
    environment: key.environment,
    status: key.status,
    expired: key.expiresAt !== null && key.expiresAt <= now,
    lastFour: key.lastFour,
    scopes: toScopeObjects(key.scopes),
    ipAllowlist: key.ipAllowlist,
    expiresAt: key.expiresAt,
    usageLimit: key.usageLimit,
    usageCount: Number(key.usageCount),
    lastUsedAt: key.lastUsedAt,
    createdAt: key.createdAt,
  };
}

function scopeSummary(pairs: readonly string[]): string {
  const all = allScopePairs();
  if (all.every((pair) => pairs.includes(pair))) return `all ${all.length}`;
  return toScopeObjects(pairs)
    .map((scope) => `${scope.resource}:${scope.actions.join(',')}`)
    .join(' ');
}

export const keyCommands: Command[] = [
  command({
    name: 'key create',
    summary:
      'Issues an API key for a store on a plan with API access (PRO, SCALE) and prints its secret once.',
    options: {
      store: { type: 'string', value: '<storeId>', description: 'The store (str_…)' },
      name: { type: 'string', value: '<name>', description: 'Key name' },
      env: { type: 'string', value: '<environment>', description: 'production, staging or development' },
      scope: {
        type: 'string',
        multiple: true,
        value: '<RESOURCE:ACTION[,ACTION]>',
        description: 'A granted scope, e.g. PRODUCTS:READ,WRITE or ORDERS:*; repeat for more',
      },
      'all-scopes': { type: 'boolean', description: 'Every action on every resource, instead of --scope' },
      ip: {
        type: 'string',
        multiple: true,
        value: '<address|cidr>',
        description: 'Allowed client address or range',
      },
      expires: {
        type: 'string',
        value: '<iso8601>',
        description: 'Expiry, e.g. 2027-01-31 or 2027-01-31T12:00:00Z',
      },
      'usage-limit': {
        type: 'string',
        value: '<n>',
        description: 'Total number of requests the key may make',
      },
    },
    required: ['store', 'name', 'env'],
    notes: [
      `Resources: ${scopeResources.join(', ')}.`,
      `Actions: ${scopeActions.join(', ')}.`,
      'Without --ip every address is allowed; a date-time without an offset is UTC.',
    ],
    async run({ db, now }, input) {
      const fields = keyFields(input, now);
      const store = await findStore(db, stringOption(input, 'store') as string);
      if (!planFeatures[store.plan].apiAccess) {
        throw new AppError(
          'PLAN_NOT_ELIGIBLE',
          `Store ${store.id} is on the ${store.plan} plan, which has no API access; move it to PRO or SCALE first ` +
            '(store plan <storeId> --plan PRO)',
        );
      }
      const issued = await issueApiKey(db, store.id, fields, { now });
      const key = await db.apiKey.findUniqueOrThrow({ where: { id: issued.keyId } });
      return {
        json: { storeId: store.id, ...keyJson(key, now), secret: issued.secret },
        text: [
          `Created API key ${key.id} "${key.keyName}" (${key.environment}) for store ${store.id}`,
          `  Scopes:       ${scopeSummary(key.scopes)}`,
          `  IP allowlist: ${key.ipAllowlist.length ? key.ipAllowlist.join(', ') : 'any address'}`,
          `  Expires:      ${isoOrDash(key.expiresAt, 'never')}`,
          `  Usage limit:  ${key.usageLimit ?? 'none'}`,
          'Secret (shown once; only its hash is stored, so save it now):',
          `  ${issued.secret}`,
        ],
      };
    },
  }),
  command({
    name: 'key list',
    summary:
      'Lists a store’s API keys, oldest first. Secrets are never shown: only their last four characters.',
    options: { store: { type: 'string', value: '<storeId>', description: 'The store (str_…)' } },
    required: ['store'],
    async run({ db, now }, input) {
      const store = await findStore(db, stringOption(input, 'store') as string);
      const keys = await db.apiKey.findMany({
        where: { storeId: store.id },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      const rows = keys.map((key) => [
        key.id,
        key.keyName,
        key.environment,
        key.expiresAt && key.expiresAt <= now && key.status === 'active' ? 'expired' : key.status,
        `…${key.lastFour}`,
        scopeSummary(key.scopes),
        isoOrDash(key.expiresAt, 'never'),
        `${key.usageCount}${key.usageLimit === null ? '' : `/${key.usageLimit}`}`,
        isoOrDash(key.createdAt),
      ]);
      return {
        json: { storeId: store.id, keys: keys.map((key) => keyJson(key, now)) },
        text: keys.length
          ? table(
              ['KEY ID', 'NAME', 'ENV', 'STATUS', 'LAST 4', 'SCOPES', 'EXPIRES', 'USAGE', 'CREATED'],
              rows,
            )
          : [`Store ${store.id} has no API keys.`],
      };
    },
  }),
];

/**
 * The new key's fields from the options, every problem reported at once: the CLI's own parsing (--scope,
 * --expires, --usage-limit) and the service's rules for the rest (newApiKeyInput, which issueApiKey applies
 * again).
 */
function keyFields(input: CommandInput, now: Date): NewApiKeyInput {
  const details: ErrorDetail[] = [];
  const collect = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof AppError) || !error.details) throw error;
      details.push(...error.details);
      return undefined;
    }
  };
  const expires = stringOption(input, 'expires');
  const usageLimit = stringOption(input, 'usage-limit');
  const ips = listOption(input, 'ip');
  const scopes = collect(() => scopesFrom(input)) ?? [];
  const fields: NewApiKeyInput = {
    keyName: stringOption(input, 'name') as string,
    environment: stringOption(input, 'env') as NewApiKeyInput['environment'],
    scopes,
    ipAllowlist: ips.length ? ips : undefined,
    expiresAt: expires === undefined ? undefined : collect(() => parseExpires(expires)),
    usageLimit: usageLimit === undefined ? undefined : collect(() => parseUsageLimit(usageLimit)),
  };
  collect(() => parseInput(newApiKeyInput(now).omit({ scopes: true }), fields));
  if (details.length) throw validationError(details);
  return fields;
}

function scopesFrom(input: CommandInput): ScopeObject[] {
  const entries = listOption(input, 'scope');
  const all = input.values['all-scopes'] === true;
  if (all && entries.length) throw new UsageError('give either --scope or --all-scopes, not both');
  if (all) return toScopeObjects(allScopePairs());
  if (!entries.length) throw new UsageError('missing --scope (or --all-scopes)');
  return parseScopeOptions(entries);
}
