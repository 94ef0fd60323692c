import type { Plugin } from '@envelop/core';
import {
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import type { Authenticate } from '../../auth/authenticate';
import { sessionCookieOf, sessionCookiePolicy } from '../../auth/session-cookie';
import type { RequestServices } from '../../context';
import { classifyError, toGraphQLError } from '../../errors';
import { setErrorHeaders } from '../../http/respond';
import { cacheableReadScopes } from '../../read-cache/operation';
import type { DoorRequest, PipelineContext } from '../pipeline-context';

/**
 * The request context and its principal, for every door. The context is built from the door's HTTP
 * request once per operation. REST and MCP authenticate at their door, before their own protocol
 * steps (docs/design.md "API keys", check order; MCP answers 401 before JSON-RPC starts); a /graphql operation is
 * authenticated here, once its document is parsed — unless every root field it selects is public
 * (signing in), decided on the document, not by peeking into the body.
 */
export function useRequestContext(deps: {
  services: RequestServices;
  authenticate: Authenticate;
  schema: GraphQLSchema;
}): Plugin<PipelineContext> {
  const isPublic = publicOperations(deps.schema);
  return {
    onContextBuilding({ context }) {
      buildContext(context, deps.services);
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
          isCacheableRead: () => cacheableReadScopes(deps.schema, args.document, args.operationName) !== null,
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

/** Services made by hand (tests) name no policy: development's. */
const DEVELOPMENT_COOKIE = sessionCookiePolicy({ isProduction: false });

/**
 * A REST or MCP operation's initial context, every field of an execution's context declared up front
 * (undefined until buildContext fills it): filling the fields of one fixed shape costs V8 nothing,
 * while adding them to a plain object made a new hidden class per request (measured as a large share
 * of the pipeline's cost on a cached read: bench/BASELINE.md, "Figures the code's comments relied on").
 */
export class DoorContext implements Partial<PipelineContext> {
  req: DoorRequest['req'];
  res: DoorRequest['res'];
  door: DoorRequest['door'];
  idempotencyKey: string | undefined;
  prisma = undefined;
  now = undefined;
  invalidateAuth = undefined;
  loginThrottle = undefined;
  webhooks = undefined;
  storeChanged = undefined;
  sessionCookiePolicy = undefined;
  principal = undefined;
  requestId = undefined;
  clientAddress = undefined;
  userAgent = undefined;
  sessionCookie = undefined;
  log = undefined;
  requestedCost: number | undefined = undefined;
  idempotentReplay = undefined;

  constructor(request: DoorRequest) {
    this.req = request.req;
    this.res = request.res;
    this.door = request.door;
    this.idempotencyKey = request.idempotencyKey;
    this.requestedCost = request.requestedCost;
  }
}

/**
 * Adds the resolvers' Context to the door's initial context object, in place (envelop hands that
 * object on). Each field is written out: Object.assign of the services cost ~25 times as much.
 */
function buildContext(context: Partial<PipelineContext>, services: RequestServices): void {
  const { req } = context as PipelineContext;
  const state = req.state;
  context.door ??= 'graphql';
  context.prisma = services.prisma;
  context.now = services.now;
  context.invalidateAuth = services.invalidateAuth;
  context.loginThrottle = services.loginThrottle;
  context.webhooks = services.webhooks;
  context.storeChanged = services.storeChanged;
  context.sessionCookiePolicy = services.sessionCookiePolicy;
  context.principal = state.principal;
  context.requestId = state.requestId;
  context.clientAddress = state.clientAddress;
  context.userAgent = req.headers['user-agent'];
  context.sessionCookie = sessionCookieOf(req, services.sessionCookiePolicy ?? DEVELOPMENT_COOKIE);
  context.log = state.log;
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
