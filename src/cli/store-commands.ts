import { z } from 'zod';
import type { Store } from '../../prisma/generated/client/client';
import { Plan } from '../../prisma/generated/client/enums';
import { planFeatures } from '../access/plans';
import { changeStorePlan, resumeStore, suspendStore } from '../modules/stores/lifecycle';
import { createStore } from '../modules/stores/provision';
import { parseInput } from '../validation';
import { type Command, type CommandInput, command, stringOption } from './args';
import { isoOrDash, table } from './output';

const plans = Object.values(Plan) as [Plan, ...Plan[]];
/** Plans are accepted in any case: `pro` is PRO. */
export const planInput = z.preprocess(
  (value) => (typeof value === 'string' ? value.toUpperCase() : value),
  z.enum(plans, { error: `must be one of ${plans.join(', ')}` }),
);
export const passwordInput = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(200, 'at most 200 characters');

const storeJson = (store: Store) => ({
  id: store.id,
  name: store.name,
  plan: store.plan,
  status: store.status,
  currency: store.currency,
  suspendedAt: store.suspendedAt,
  createdAt: store.createdAt,
  updatedAt: store.updatedAt,
});

const storeLine = (store: Store) =>
  `${store.id} "${store.name}" (${store.plan}, ${store.status}${store.suspendedAt ? ` since ${isoOrDash(store.suspendedAt)}` : ''})`;

const storeCreateInput = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'at most 100 characters'),
  plan: planInput,
  'owner-email': z.email('must be an e-mail address'),
  'owner-name': z.string().trim().min(1).max(100, 'at most 100 characters').optional(),
  'owner-password': passwordInput.optional(),
});

const storeIdOf = (input: CommandInput) => input.positionals[0] as string;

export const storeCommands: Command[] = [
  command({
    name: 'store list',
    summary: 'Lists the stores, oldest first: id, name, plan, status, owner.',
    options: {},
    async run({ db }) {
      const stores = await db.store.findMany({
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        include: { owner: { select: { id: true, email: true } } },
      });
      return {
        json: { stores: stores.map((store) => ({ ...storeJson(store), owner: store.owner })) },
        text: stores.length
          ? table(
              ['ID', 'NAME', 'PLAN', 'STATUS', 'OWNER'],
              stores.map((store) => [
                store.id,
                store.name,
                store.plan,
                store.status,
                store.owner?.email ?? '-',
              ]),
            )
          : ['No stores yet: `npm run cli -- store create …` makes one (npm start makes a demo store).'],
      };
    },
  }),
  command({
    name: 'store create',
    summary: 'Creates a store and its owner (a staff user with the OWNER role).',
    options: {
      name: { type: 'string', value: '<name>', description: 'Store name' },
      plan: { type: 'string', value: '<plan>', description: `One of ${plans.join(', ')}` },
      'owner-email': {
        type: 'string',
        value: '<email>',
        description: 'The owner’s e-mail address (sign-in name)',
      },
      'owner-name': {
        type: 'string',
        value: '<name>',
        description: 'The owner’s display name (default: the e-mail)',
      },
      'owner-password': {
        type: 'string',
        value: '<password>',
        description: 'At least 8 characters; without it the owner cannot sign in yet',
      },
    },
    required: ['name', 'plan', 'owner-email'],
    async run({ db }, input) {
      const fields = parseInput(storeCreateInput, {
        name: stringOption(input, 'name'),
        plan: stringOption(input, 'plan'),
        'owner-email': stringOption(input, 'owner-email'),
        'owner-name': stringOption(input, 'owner-name'),
        'owner-password': input.values['owner-password'],
      });
      const store = await createStore(db, {
        name: fields.name,
        plan: fields.plan,
        ownerEmail: fields['owner-email'],
        ownerName: fields['owner-name'],
        ownerPassword: fields['owner-password'],
      });
      const owner = store.owner;
      return {
        json: {
          store: storeJson(store),
          owner: owner && { id: owner.id, email: owner.email, name: owner.name, role: owner.role },
        },
        text: [
          `Created store ${storeLine(store)}`,
          `  Owner: ${owner?.id} ${owner?.email} (${owner?.passwordHash ? 'password set' : 'no password yet: cannot sign in'})`,
          ...(planFeatures[store.plan].apiAccess
            ? []
            : [`  Note: the ${store.plan} plan has no API access; API keys need PRO or SCALE.`]),
        ],
      };
    },
  }),
  command({
    name: 'store suspend',
    summary: 'Suspends a store: its API keys then get 402 STORE_SUSPENDED.',
    positionals: ['storeId'],
    options: {},
    async run({ writer, now, invalidateAuth }, input) {
      const { store, changed } = await suspendStore(writer, storeIdOf(input), { now });
      if (changed) await invalidateAuth({ storeId: store.id });
      return {
        json: { store: storeJson(store), changed },
        text: [
          changed ? `Suspended store ${storeLine(store)}` : `Store ${storeLine(store)} was already suspended`,
        ],
      };
    },
  }),
  command({
    name: 'store resume',
    summary: 'Lifts a store’s suspension.',
    positionals: ['storeId'],
    options: {},
    async run({ writer, invalidateAuth }, input) {
      const { store, changed } = await resumeStore(writer, storeIdOf(input));
      if (changed) await invalidateAuth({ storeId: store.id });
      return {
        json: { store: storeJson(store), changed },
        text: [changed ? `Resumed store ${storeLine(store)}` : `Store ${storeLine(store)} was not suspended`],
      };
    },
  }),
  command({
    name: 'store plan',
    summary: 'Moves a store to another plan.',
    positionals: ['storeId'],
    options: { plan: { type: 'string', value: '<plan>', description: `One of ${plans.join(', ')}` } },
    required: ['plan'],
    async run({ writer, invalidateAuth }, input) {
      const { plan } = parseInput(z.object({ plan: planInput }), { plan: stringOption(input, 'plan') });
      const { store, changed, previousPlan } = await changeStorePlan(writer, storeIdOf(input), plan);
      if (changed) await invalidateAuth({ storeId: store.id });
      const lines = changed
        ? [`Store ${store.id} moved from ${previousPlan} to ${store.plan}`]
        : [`Store ${store.id} is already on ${store.plan}`];
      if (changed && planFeatures[previousPlan].apiAccess && !planFeatures[store.plan].apiAccess) {
        lines.push(
          `  Note: ${store.plan} has no API access; this store's API keys now get 403 PLAN_NOT_ELIGIBLE.`,
        );
      }
      return { json: { store: storeJson(store), previousPlan, changed }, text: lines };
    },
  }),
];
