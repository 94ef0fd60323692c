import path from 'node:path';
import { queryFromInfo } from '@pothos/plugin-prisma';
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  Kind,
  type SelectionSetNode,
  visit,
} from 'graphql';

/**
 * The Prisma selection of a field (what `queryFromInfo` of @pothos/plugin-prisma derives from the
 * GraphQL selection beneath it), planned once per document and kept: a REST route's or MCP tool's
 * fixed document, or a /graphql document yoga's parser cache hands out again, asks for the same
 * selection on every run, and walking it was a sizeable share of an uncached page's CPU
 * (bench/BASELINE.md, "Per-document plans").
 *
 * Keyed by the identity of the field's nodes in the document (so by document, operation and place
 * in it), by `path`/`typeName` of the call, and by the values of the variables used beneath the
 * field (a relation's arguments, `@skip`/`@include`): the field's own arguments (page, limit,
 * filters) are not beneath it and do not split the key. Bounded: at most VARIANTS variable values
 * per field, and an entry lives as long as its document (a WeakMap on the field node). Only a plan
 * that reads nothing of the request is kept: it is planned with a context that refuses to be read,
 * and a select function that reads it (none does today) makes that field plan per request, as
 * before. What a plan records for the resolvers beneath it (the loader mappings: which relations
 * the query loaded) is recorded on each request's own context.
 *
 * Written here rather than found in the library: plugin-prisma plans per call and offers no hook;
 * its planner (`Plan` of @pothos/selection-mapper) is built to be played more than once, so this
 * keeps the played plan and records its mappings per request with the library's own function.
 */

/** At most this many sets of variable values beneath one field are kept (a client may vary them). */
export const VARIANTS = 32;

interface Played {
  root: unknown;
  mappings: Record<string, unknown>;
}
interface SelectionMapper {
  Plan: {
    fromInfo(adapter: unknown, options: object): { played?: Played } | PromiseLike<unknown> | undefined;
  };
  setLoaderMappings(context: object, info: GraphQLResolveInfo, mappings: Record<string, unknown>): void;
}
interface PrismaAdapter {
  toQuery(root: unknown): object;
}

// The planner and adapter plugin-prisma itself uses: the same module instances, so the mappings
// recorded here are the ones its relation resolvers read (the package exports neither).
const pluginDir = path.dirname(require.resolve('@pothos/plugin-prisma'));
const mapper = require(
  require.resolve('@pothos/selection-mapper', { paths: [pluginDir] }),
) as SelectionMapper;
const { prismaAdapter } = require(path.join(pluginDir, 'util', 'adapter.js')) as {
  prismaAdapter: PrismaAdapter;
};

export interface SelectionRequest {
  context: object;
  info: GraphQLResolveInfo;
  /** Where beneath the field the model's selection is (a page's `items`). */
  path?: string[];
  /** The model's type, when the field's type is an interface (Relay's node). */
  typeName?: string;
}

interface Entry {
  schema: GraphQLSchema;
  /** The query to hand Prisma, frozen (every request shares it); undefined: plan per request. */
  query: object | undefined;
  mappings: Record<string, unknown> | undefined;
}

const byField = new WeakMap<FieldNode, Map<string, Entry>>();

/** The Prisma selection for the field `info` resolves (as `queryFromInfo` gives it), planned once. */
export function plannedSelection(request: SelectionRequest): object {
  const { info, context } = request;
  const key = variantKey(request);
  const first = info.fieldNodes[0];
  let variants = first && byField.get(first);
  const known = key === undefined ? undefined : variants?.get(key);
  if (known && known.schema === info.schema) {
    if (!known.query) return perRequest(request);
    if (known.mappings) mapper.setLoaderMappings(context, info, known.mappings);
    return known.query;
  }
  if (key === undefined || !first) return perRequest(request);
  const entry = plan(request);
  if (!variants) {
    variants = new Map();
    byField.set(first, variants);
  }
  if (variants.size < VARIANTS || variants.has(key)) variants.set(key, entry);
  if (!entry.query) return perRequest(request);
  if (entry.mappings) mapper.setLoaderMappings(context, info, entry.mappings);
  return entry.query;
}

const perRequest = ({ context, info, path: at, typeName }: SelectionRequest) =>
  queryFromInfo({ context, info, path: at, typeName }) as object;

/** Thrown by the planning context when a select function reads the request. */
class ReadsTheRequest extends Error {}

/**
 * A context that refuses every read but the library's own per-context cache marker (a symbol): a
 * plan made with it depends on nothing of the request.
 */
const PLANNING_CONTEXT: object = new Proxy(Object.create(null), {
  get(_target, property) {
    if (typeof property === 'symbol') return undefined;
    throw new ReadsTheRequest(`a select function read context.${property}`);
  },
  has() {
    throw new ReadsTheRequest('a select function read the context');
  },
});

function plan({ info, path: at, typeName }: SelectionRequest): Entry {
  const uncached: Entry = { schema: info.schema, query: undefined, mappings: undefined };
  let planned: ReturnType<SelectionMapper['Plan']['fromInfo']>;
  try {
    planned = mapper.Plan.fromInfo(prismaAdapter, {
      context: PLANNING_CONTEXT,
      info,
      typeName,
      path: at ?? [],
      paths: [],
      skipDeferredFragments: true,
      initial: undefined,
    });
  } catch {
    // A plan that reads the request, or fails: planned per request (which throws again if it fails).
    return uncached;
  }
  // Nothing is selected beneath the path: queryFromInfo's answer is then the empty selection.
  if (planned === undefined) return { schema: info.schema, query: Object.freeze({}), mappings: undefined };
  if (!('played' in planned) || !planned.played) return uncached; // a select function that awaits
  const { root, mappings } = planned.played;
  return { schema: info.schema, query: deepFreeze(prismaAdapter.toQuery(root)), mappings };
}

/** Shared by every request: a change to it would be a change to every later one's query. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The call and what varies a plan within one document: which nodes the field is (more than one when
 * its response key is selected twice), and the variables beneath it. Undefined: not to be kept.
 */
function variantKey({ info, path: at, typeName }: SelectionRequest): string | undefined {
  const nodes = info.fieldNodes;
  let key = `${typeName ?? ''}|${at?.join('.') ?? ''}`;
  if (nodes.length > 1) key += `|${nodes.map(nodeId).join(',')}`;
  const names = new Set<string>();
  for (const node of nodes) for (const name of variablesBeneath(node, info.fragments)) names.add(name);
  if (names.size === 0) return key;
  try {
    return `${key}|${JSON.stringify([...names].map((name) => info.variableValues[name] ?? null))}`;
  } catch {
    return undefined; // a value JSON cannot write (a BigInt): planned per request
  }
}

const ids = new WeakMap<FieldNode, number>();
let nextId = 0;
function nodeId(node: FieldNode): number {
  let id = ids.get(node);
  if (id === undefined) {
    id = nextId++;
    ids.set(node, id);
  }
  return id;
}

const beneath = new WeakMap<FieldNode, string[]>();

/** The variables a field's selection set uses, through the fragments it spreads (once per node). */
function variablesBeneath(node: FieldNode, fragments: Record<string, FragmentDefinitionNode>): string[] {
  let names = beneath.get(node);
  if (names) return names;
  const found = new Set<string>();
  const seen = new Set<string>();
  const walk = (selectionSet: SelectionSetNode | undefined) => {
    if (!selectionSet) return;
    visit(selectionSet, {
      [Kind.VARIABLE]: (variable) => {
        found.add(variable.name.value);
      },
      [Kind.FRAGMENT_SPREAD]: (spread) => {
        const name = spread.name.value;
        if (seen.has(name)) return;
        seen.add(name);
        walk(fragments[name]?.selectionSet);
      },
    });
  };
  walk(node.selectionSet);
  names = [...found].sort();
  beneath.set(node, names);
  return names;
}
