import type { Plugin } from '@envelop/core';
import {
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
  type ValueNode,
} from 'graphql';
import { AppError, type ErrorDetail, toGraphQLError, validationError } from '../../errors';
import type { PipelineContext } from '../pipeline-context';

/**
 * Text PostgreSQL cannot store (SQLSTATE 22021, 22P05): NUL, and UTF-16 surrogates without their
 * pair (a JSON body can carry them as \ud800 escapes; UTF-8 has no way to write them).
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = 'must not contain NUL or unpaired surrogate characters';

/**
 * The one input boundary of every door (README "Bad input"): before an operation runs, each
 * variable is checked against its declared type here — with the path of each bad value as data,
 * not as graphql-js's message text — and every string that could reach the database, in the
 * variables or written in the document, is refused if PostgreSQL cannot store it. A refusal is
 * 400 VALIDATION_ERROR with `details` naming each field (`input.name`, `input.items.0.quantity`).
 */
export function useInputBoundary(schema: GraphQLSchema): Plugin<PipelineContext> {
  const literalProblems = new WeakMap<DocumentNode, ErrorDetail[]>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      let inDocument = literalProblems.get(args.document);
      if (!inDocument) {
        inDocument = unstorableLiterals(args.document);
        literalProblems.set(args.document, inDocument);
      }
      const details = [...inDocument, ...variableProblems(schema, operation, args.variableValues ?? {})];
      if (details.length > 0)
        setResultAndStopExecution({ errors: [toGraphQLError(validationError(details))] });
    },
  };
}

/** Each variable against its declared type: what is missing, unknown, of the wrong kind, or unstorable. */
function variableProblems(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  values: Record<string, unknown>,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) continue; // validation has refused the document already
    const value = values[name];
    if (value === undefined && definition.defaultValue) continue;
    check(type, value, name, details);
  }
  return details;
}

function check(type: GraphQLInputType, value: unknown, path: string, details: ErrorDetail[]): void {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) details.push({ path, message: 'is required' });
    else check(type.ofType, value, path, details);
    return;
  }
  if (value === null || value === undefined) return;
  if (isListType(type)) {
    // GraphQL takes a single value where a list is asked for, as a list of one.
    if (!Array.isArray(value)) return check(type.ofType, value, path, details);
    value.forEach((item, i) => {
      check(type.ofType, item, `${path}.${i}`, details);
    });
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      details.push({ path, message: 'must be an object' });
      return;
    }
    const fields = type.getFields();
    for (const key of Object.keys(value)) {
      if (!fields[key]) details.push({ path: `${path}.${key}`, message: `is not a field of ${type.name}` });
    }
    for (const field of Object.values(fields)) {
      const fieldValue = (value as Record<string, unknown>)[field.name];
      if (fieldValue === undefined && field.defaultValue !== undefined) continue;
      check(field.type, fieldValue, `${path}.${field.name}`, details);
    }
    return;
  }
  const problem = unstorableIn(value, path);
  if (problem) {
    details.push(problem);
    return;
  }
  if (isEnumType(type)) {
    if (typeof value !== 'string' || !type.getValue(value)) {
      const allowed = type.getValues().map((v) => v.name);
      details.push({ path, message: `must be one of ${allowed.join(', ')}` });
    }
    return;
  }
  if (isScalarType(type)) {
    try {
      if (type.parseValue(value) === undefined)
        details.push({ path, message: `must be a valid ${type.name}` });
    } catch (error) {
      const message = error instanceof AppError ? error.message : `must be a valid ${type.name}`;
      details.push({ path, message });
    }
  }
}

/** The first string (or object key) in a value that PostgreSQL could not store, as a detail. */
function unstorableIn(value: unknown, path: string): ErrorDetail | undefined {
  if (typeof value === 'string')
    return UNSTORABLE.test(value) ? { path, message: UNSTORABLE_MESSAGE } : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorableIn(item, `${path}.${i}`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (UNSTORABLE.test(key)) return { path, message: UNSTORABLE_MESSAGE };
      const found = unstorableIn(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** Strings written in the document's arguments (`product(id: "…")`) that PostgreSQL could not store. */
function unstorableLiterals(document: DocumentNode): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const visit = (value: ValueNode, path: string) => {
    if (value.kind === Kind.STRING && UNSTORABLE.test(value.value))
      details.push({ path, message: UNSTORABLE_MESSAGE });
    else if (value.kind === Kind.LIST) value.values.forEach((item, i) => visit(item, `${path}.${i}`));
    else if (value.kind === Kind.OBJECT)
      for (const field of value.fields) visit(field.value, `${path}.${field.name.value}`);
  };
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        for (const argument of selection.arguments ?? []) visit(argument.value, argument.name.value);
        if (selection.selectionSet) walk(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
    }
  };
  // Operations and fragments alike: a literal in a fragment runs as surely as one in the operation.
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION)
      walk(definition.selectionSet);
  return details;
}
