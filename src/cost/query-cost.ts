import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { declaredListSize } from '../field-extensions';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../page-size';
import type { CostDecision } from './budget';

/**
 * Query cost in Shopify's model (README "Query limits and cost"): every object a query asks for
 * costs 1 point and a scalar 0; a list costs its page size times what one item costs; a mutation's
 * root field costs 10 more. The page size is the `limit`, `first` or `last` argument of the list
 * field or of the page/connection field above it (at most 100, the largest page the API serves),
 * else the list's declared bound (`extensions: listSize(n)`, src/field-extensions.ts), else the default
 * page size.
 */
export const MUTATION_COST = 10;
const SIZE_ARGUMENTS = ['limit', 'first', 'last'];

export interface QueryCost {
  requestedQueryCost: number;
  actualQueryCost: number;
  /** The caller's query-cost budget after this request (keys and signed-in staff). */
  budget?: { limit: number; remaining: number; windowSeconds: number };
}

/** `extensions.cost`: what was asked and returned, and, where a budget was charged, what is left of it. */
export function costExtension(
  requested: number,
  actual: number,
  charged: CostDecision | undefined,
): QueryCost {
  return {
    requestedQueryCost: requested,
    actualQueryCost: actual,
    ...(charged ? { budget: budgetOf(charged) } : {}),
  };
}

/** `extensions.cost.budget`: what a decision (a refusal, or the balance after a refund) leaves. */
export const budgetOf = (decision: CostDecision): NonNullable<QueryCost['budget']> => ({
  limit: decision.limit,
  remaining: decision.remaining,
  windowSeconds: decision.windowSeconds,
});

/** Per operation, the requested cost by variables' JSON: a document asked again is not walked again. */
const remembered = new WeakMap<OperationDefinitionNode, Map<string, number>>();
const REMEMBERED_PER_OPERATION = 64;
const REMEMBERED_VARIABLES_LENGTH = 512;

/** The cost before running: an upper bound of what the operation may return. */
export function requestedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): number {
  const key = variablesKey(variables);
  if (key === undefined) return walkedCost(schema, document, operation, variables);
  let byVariables = remembered.get(operation);
  if (!byVariables) {
    byVariables = new Map();
    remembered.set(operation, byVariables);
  }
  let cost = byVariables.get(key);
  if (cost === undefined) {
    cost = walkedCost(schema, document, operation, variables);
    if (byVariables.size >= REMEMBERED_PER_OPERATION) byVariables.clear();
    byVariables.set(key, cost);
  }
  return cost;
}

/** Short variables as JSON; undefined for long ones (and for what JSON cannot write). */
function variablesKey(variables: Record<string, unknown>): string | undefined {
  try {
    const key = JSON.stringify(variables);
    return key.length <= REMEMBERED_VARIABLES_LENGTH ? key : undefined;
  } catch {
    return undefined;
  }
}

function walkedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): number {
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return 0;
  const walker = new CostWalker(schema, fragmentsOf(document), withDefaults(operation, variables));
  const selection = walker.selectionCost(operation.selectionSet, root, undefined, new Set());
  const roots = operation.operation === 'mutation' ? walker.rootFieldCount(operation.selectionSet) : 0;
  return selection + roots * MUTATION_COST;
}

const fragmentMaps = new WeakMap<DocumentNode, Map<string, FragmentDefinitionNode>>();

/** A document's fragments by name, found once per parsed document. */
function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  let fragments = fragmentMaps.get(document);
  if (!fragments) {
    fragments = new Map();
    for (const definition of document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    fragmentMaps.set(document, fragments);
  }
  return fragments;
}

/** A variable left out takes its default from the operation. */
function withDefaults(operation: OperationDefinitionNode, variables: Record<string, unknown>) {
  let values = variables;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (values[name] !== undefined || definition.defaultValue?.kind !== Kind.INT) continue;
    if (values === variables) values = { ...variables };
    values[name] = Number(definition.defaultValue.value);
  }
  return values;
}

/**
 * One walk over an answer's `data`: its actual cost — 1 for every object (the same unit as the
 * requested cost, counted on the answer) plus 10 per mutation root field — and the length of its
 * JSON text (characters; string escapes aside), which the response size cap is checked on without
 * writing the JSON twice.
 */
export function measureAnswer(
  data: unknown,
  operation: OperationDefinitionNode | undefined,
): { cost: number; jsonLength: number } {
  let objects = 0;
  let length = 0;
  // Braces and the separators: `{}`, or `{` + `"key":` and a comma or `}` after each member.
  const walkObject = (value: Record<string, unknown>) => {
    let members = 0;
    for (const key in value) {
      members++;
      length += key.length + 4;
      walk(value[key]);
    }
    length += members === 0 ? 2 : 1;
    return members;
  };
  const walk = (value: unknown) => {
    if (value === null || value === undefined) length += 4;
    else if (typeof value === 'string') length += value.length + 2;
    else if (typeof value === 'number' || typeof value === 'boolean') length += String(value).length;
    else if (Array.isArray(value)) {
      length += value.length === 0 ? 2 : value.length + 1;
      for (const item of value) walk(item);
    } else if (typeof value === 'object') {
      objects++;
      walkObject(value as Record<string, unknown>);
    }
  };
  const roots = data !== null && typeof data === 'object' ? walkObject(data as Record<string, unknown>) : 0;
  return {
    cost: objects + (operation?.operation === 'mutation' ? roots * MUTATION_COST : 0),
    jsonLength: length,
  };
}

class CostWalker {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
  ) {}

  /** Sum over the selections (fragments included: an upper bound for type conditions). */
  selectionCost(
    set: SelectionSetNode,
    parent: GraphQLNamedType,
    size: number | undefined,
    visiting: Set<string>,
  ): number {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += this.fieldCost(selection, parent, size, visiting);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition?.name.value;
        cost += this.selectionCost(selection.selectionSet, this.typeNamed(condition, parent), size, visiting);
      } else {
        const name = selection.name.value;
        const fragment = this.fragments.get(name);
        // A cycle is a validation error of its own; it costs nothing more here.
        if (!fragment || visiting.has(name)) continue;
        visiting.add(name);
        const condition = this.typeNamed(fragment.typeCondition.name.value, parent);
        cost += this.selectionCost(fragment.selectionSet, condition, size, visiting);
        visiting.delete(name);
      }
    }
    return cost;
  }

  rootFieldCount(set: SelectionSetNode): number {
    return set.selections.filter((s) => s.kind === Kind.FIELD && s.name.value !== '__typename').length;
  }

  private fieldCost(
    node: FieldNode,
    parent: GraphQLNamedType,
    inherited: number | undefined,
    visiting: Set<string>,
  ): number {
    const field = fieldOf(parent, node.name.value);
    if (!field) return 0;
    const named = getNamedType(field.type);
    if (!isCompositeType(named)) return 0;
    const own = this.sizeArgument(node);
    if (isListType(getNullableType(field.type))) {
      const count = own ?? inherited ?? declaredListSize(field) ?? DEFAULT_PAGE_SIZE;
      const item = node.selectionSet ? this.selectionCost(node.selectionSet, named, undefined, visiting) : 0;
      return count * (1 + item);
    }
    // A page or connection object: its size argument sizes the list inside it (items, edges).
    return 1 + (node.selectionSet ? this.selectionCost(node.selectionSet, named, own, visiting) : 0);
  }

  private sizeArgument(node: FieldNode): number | undefined {
    for (const argument of node.arguments ?? []) {
      if (!SIZE_ARGUMENTS.includes(argument.name.value)) continue;
      const value = this.valueOf(argument.value);
      if (value === null || value === undefined) return DEFAULT_PAGE_SIZE;
      return Number.isInteger(value) && (value as number) > 0
        ? Math.min(value as number, MAX_PAGE_SIZE)
        : DEFAULT_PAGE_SIZE;
    }
    return undefined;
  }

  private valueOf(value: ValueNode): unknown {
    if (value.kind === Kind.INT) return Number(value.value);
    if (value.kind === Kind.VARIABLE) return this.variables[value.name.value];
    return undefined;
  }

  private typeNamed(name: string | undefined, fallback: GraphQLNamedType): GraphQLNamedType {
    return (name !== undefined ? this.schema.getType(name) : undefined) ?? fallback;
  }
}

function fieldOf(type: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  return (type as { getFields?: () => Record<string, GraphQLField<unknown, unknown>> }).getFields?.()[name];
}
