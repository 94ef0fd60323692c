import type { Plugin } from '@envelop/core';
import {
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import type { Authenticate } from '../../auth/authenticate';
import type { RequestServices } from '../../context';
import { classifyError, toGraphQLError } from '../../errors';
import { setErrorHeaders } from '../../http/respond';
import { versionedReadScopes } from '../../read-cache/operation';
import type { DoorContextClass, PipelineContext } from '../pipeline-context';

/**
 * The request context and its principal, for every door. A door's context comes whole from its class
 * (doorContextClass, built from the door's HTTP request once per operation). REST and MCP
 * authenticate at their door, before their own protocol steps (docs/design.md "API keys", check
 * order; MCP answers 401 before JSON-RPC starts); a /graphql operation is
 * authenticated here, once its document is parsed — unless every root field it selects is public
 * (signing in), decided on the document, not by peeking into the body.
 */
export function useRequestContext(deps: {
  services: RequestServices;
  authenticate: Authenticate;
  schema: GraphQLSchema;
  /** The class of the contexts the doors hand the pipeline (made in full by its constructor). */
  DoorContext: DoorContextClass;
}): Plugin<PipelineContext> {
  const isPublic = publicOperations(deps.schema);
  const { DoorContext, services } = deps;
  return {
    onContextBuilding({ context }) {
      // What yoga serves itself (a GET, GraphiQL, a document it refuses) comes with yoga's own context
      // object: it gets the same fields, in place. Rare, so the copying costs nothing that matters.
      if (!(context instanceof DoorContext))
        Object.assign(
          context,
          services,
          new DoorContext({ req: context.req, res: context.res, door: 'graphql' }),
        );
    },
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue;
      // REST and MCP decided at their door (a REST route may be public, `auth: 'none'`).
      if (ctx.door !== 'graphql' || ctx.req.state.authenticated) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      return deps
        .authenticate(ctx.req, ctx.res, {
          isPublic: isPublic(operation),
          isWrite: () => operation.operation === 'mutation',
          isVersionedRead: () => versionedReadScopes(deps.schema, args.document, args.operationName) !== null,
          // query-limits has costed the operation (and refused it if over the limit) by now
          cost: () => ctx.requestedCost,
        })
        .then(
          () => {
            ctx.principal = ctx.req.state.principal;
          },
          (error) => setResultAndStopExecution(refusal(error, ctx)),
        );
    },
  };
}

/** An authentication or admission failure before execution: its code, and its HTTP status too. */
function refusal(error: unknown, ctx: PipelineContext): ExecutionResult {
  const { appError, unexpected } = classifyError(error);
  if (unexpected) ctx.log.error({ err: error }, 'unexpected error before GraphQL execution');
  setErrorHeaders(ctx.res, appError);
  return {
    errors: [toGraphQLError(appError, { requestId: ctx.requestId, http: { status: appError.status } })],
  };
}

/**
 * Root fields marked `extensions: { public: true }` (signing in) need no credential: an operation
 * runs unauthenticated only when every root field it selects is one of them.
 */
function publicOperations(schema: GraphQLSchema) {
  const publicFields = new Set<string>();
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {}))
      if (field.extensions?.public === true) publicFields.add(`${root?.name}.${field.name}`);
  }
  const rootName = { query: schema.getQueryType()?.name, mutation: schema.getMutationType()?.name } as const;
  const memo = new WeakMap<OperationDefinitionNode, boolean>();
  return (operation: OperationDefinitionNode): boolean => {
    let known = memo.get(operation);
    if (known === undefined) {
      const root = operation.operation === 'subscription' ? undefined : rootName[operation.operation];
      const isPublicField = (name: string) => publicFields.has(`${root}.${name}`);
      const { selections } = operation.selectionSet;
      known =
        root !== undefined &&
        selections.every(
          (s) => s.kind === Kind.FIELD && (s.name.value === '__typename' || isPublicField(s.name.value)),
        ) &&
        selections.some((s) => s.kind === Kind.FIELD && isPublicField(s.name.value));
      memo.set(operation, known);
    }
    return known;
  };
}
