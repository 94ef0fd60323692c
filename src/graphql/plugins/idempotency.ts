import type { OnExecuteHookResult, Plugin } from '@envelop/core';
import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
  print,
  type Source,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { Principal } from '../../access/principal';
import type { SecretBox } from '../../auth/secret-box';
import { AppError, classifyError, toGraphQLError } from '../../errors';
import { isShownOnce } from '../../field-extensions';
import { beginIdempotent, finishIdempotent } from '../../idempotency/store';
import type { PipelineContext } from '../pipeline-context';

export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

/** Keys are remembered per API key or per signed-in staff user; without a principal there is no scope. */
export const idempotencyScope = (principal: Principal | null) =>
  principal?.kind === 'apiKey'
    ? `key:${principal.keyId}`
    : principal?.kind === 'session'
      ? `staff:${principal.staffUserId}`
      : null;

/**
 * Idempotency for every door (README "Idempotency"): a mutation with a key — REST's
 * `Idempotency-Key` header, handed over by the door, or GraphQL's `idempotencyKey` argument — runs
 * once per caller and key for 24 h. A repeat with the same operation and variables gets the first
 * result again (the door marks it replayed), another request under the key is
 * IDEMPOTENCY_KEY_REUSED, a repeat while the first still runs IDEMPOTENCY_KEY_IN_USE. A result with
 * an unexpected error is forgotten, so the client can retry. A result that selects a secret shown
 * once (src/field-extensions.ts) is stored sealed with the server's key, bound to the caller and the
 * key, so the repeat — only the same caller's — gets the same secret and the database never holds it.
 */
export function useIdempotency(schema: GraphQLSchema, box: SecretBox): Plugin<PipelineContext> {
  // Mutations whose variables hold a password (changePassword): never remembered, so not even a
  // digest of them reaches an idempotency record.
  const neverRemembered = new Set(
    Object.values(schema.getMutationType()?.getFields() ?? {})
      .filter((field) => field.extensions?.neverRemembered === true)
      .map((field) => field.name),
  );
  const remembers = (operation: OperationDefinitionNode) =>
    operation.selectionSet.selections.every(
      (selection) => selection.kind !== Kind.FIELD || !neverRemembered.has(selection.name.value),
    );
  const bearsSecret = new WeakMap<DocumentNode, boolean>();
  const selectsSecret = (document: DocumentNode) => {
    let answer = bearsSecret.get(document);
    if (answer === undefined) {
      answer = selectsShownOnce(schema, document);
      bearsSecret.set(document, answer);
    }
    return answer;
  };
  const printed = new WeakMap<OperationDefinitionNode, string>();
  const textOf = (operation: OperationDefinitionNode) => {
    let text = printed.get(operation);
    if (text === undefined) {
      text = print(operation);
      printed.set(operation, text);
    }
    return text;
  };

  /** The mutation under its key: replayed, refused, or run and then remembered. */
  async function once(
    ctx: PipelineContext,
    record: { scope: string; key: string; hash: string; now: Date },
    sealed: boolean,
    source: Source | undefined,
    setResultAndStopExecution: (result: ExecutionResult) => void,
  ): Promise<OnExecuteHookResult<PipelineContext> | undefined> {
    const boundTo = `idempotency:${record.scope}:${record.key}`;
    try {
      const begun = await beginIdempotent(ctx.prisma, record);
      if (begun.kind === 'replay') {
        ctx.idempotentReplay = true;
        setResultAndStopExecution(revived(opened(begun.body, boundTo), source));
        return undefined;
      }
    } catch (error) {
      setResultAndStopExecution({ errors: [toGraphQLError(classifyError(error).appError)] });
      return undefined;
    }
    ctx.idempotentReplay = false;
    return {
      async onExecuteDone({ result }) {
        const remembered = rememberable(result as ExecutionResult);
        await finishIdempotent(ctx.prisma, {
          scope: record.scope,
          key: record.key,
          status: remembered ? 200 : 500,
          body: remembered && sealed ? { sealed: box.seal(JSON.stringify(remembered), boundTo) } : remembered,
          now: ctx.now(),
        });
      },
    };
  }

  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'mutation') return;
      const variables = args.variableValues ?? {};
      const key = ctx.idempotencyKey ?? keyArgument(operation, variables);
      const scope = idempotencyScope(ctx.principal);
      if (key === undefined || !scope || !remembers(operation)) return;
      const hash = idempotencyRequestHash(box, textOf(operation), variables);
      const record = { scope, key, hash, now: ctx.now() };
      const sealed = selectsSecret(args.document);
      return once(ctx, record, sealed, args.document.loc?.source, setResultAndStopExecution);
    },
  };

  /** A stored answer as it was remembered: opened, when it was sealed. */
  function opened(body: unknown, boundTo: string): RememberedResult {
    const sealed = (body as { sealed?: unknown } | null)?.sealed;
    if (typeof sealed !== 'string') return body as RememberedResult;
    try {
      return JSON.parse(box.open(sealed, boundTo)) as RememberedResult;
    } catch {
      throw new AppError(
        'CONFLICT',
        'The first answer under this Idempotency-Key holds a secret the server can no longer open (its key changed); use a new Idempotency-Key',
      );
    }
  }
}

/** Whether a document selects a field marked shownOnce anywhere (fragments included). */
function selectsShownOnce(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        if (isShownOnce(typeInfo.getFieldDef())) found = true;
      },
    }),
  );
  return found;
}

/**
 * What makes two requests under one key the same request: the operation (printed) and its variables,
 * as a keyed digest (the server's key), so a record never holds a plain hash of a password it carried.
 */
export const idempotencyRequestHash = (
  box: SecretBox,
  operationText: string,
  variables: Record<string, unknown>,
) => box.digest(JSON.stringify([operationText, variables]));

interface RememberedError {
  message: string;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  /** Where in the document, so that a repeat of the same text is answered with the same locations. */
  positions?: readonly number[];
  path?: ReadonlyArray<string | number>;
  extensions: Record<string, unknown>;
}
interface RememberedResult {
  data?: unknown;
  errors?: RememberedError[];
}

/** What is stored: data and coded errors as JSON; nothing when an error was unexpected. */
function rememberable(result: ExecutionResult): RememberedResult | undefined {
  const errors = result.errors?.map(classifyError) ?? [];
  if (errors.some((e) => e.unexpected)) return undefined;
  return {
    ...(result.data !== undefined ? { data: JSON.parse(JSON.stringify(result.data)) } : {}),
    ...(errors.length
      ? {
          errors: errors.map(({ appError }, i) => ({
            message: appError.message,
            locations: result.errors?.[i]?.locations,
            positions: result.errors?.[i]?.positions,
            path: result.errors?.[i]?.path,
            extensions: { code: appError.code, ...(appError.details ? { details: appError.details } : {}) },
          })),
        }
      : {}),
  };
}

/** A stored result as the doors expect one: its errors are GraphQL errors again, located in this request's text. */
function revived(stored: RememberedResult, source: Source | undefined): ExecutionResult {
  return {
    ...(stored.data !== undefined ? { data: stored.data as ExecutionResult['data'] } : {}),
    ...(stored.errors
      ? {
          errors: stored.errors.map(
            (error) =>
              new GraphQLError(error.message, {
                source: error.positions ? source : undefined,
                positions: error.positions,
                path: error.path,
                extensions: error.extensions,
              }),
          ),
        }
      : {}),
  };
}

/** The key given to the operation's root fields, as a literal or through a variable. */
function keyArgument(
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): string | undefined {
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const argument = selection.arguments?.find((a) => a.name.value === IDEMPOTENCY_ARGUMENT);
    if (!argument) continue;
    if (argument.value.kind === Kind.STRING) return argument.value.value;
    if (argument.value.kind === Kind.VARIABLE) {
      const value = variables[argument.value.name.value];
      if (typeof value === 'string') return value;
    }
  }
  return undefined;
}
