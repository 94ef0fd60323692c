import type { RequestLogEntry } from '../../../prisma/generated/client/client';
import { builder } from '../../builder';
import { requireScope } from '../../field-extensions';
import { listRequestLog, type RequestLogPage, statusClasses } from './service';

const RequestDoorEnum = builder.enumType('RequestDoor', {
  description: 'The door a request came through',
  values: ['GRAPHQL', 'REST', 'MCP'] as const,
});

const StatusClassEnum = builder.enumType('RequestStatusClass', {
  description: 'A class of HTTP status: SUCCESS 2xx, REDIRECTION 3xx, CLIENT_ERROR 4xx, SERVER_ERROR 5xx',
  values: statusClasses,
});

const RequestLogEntryRef = builder.objectRef<RequestLogEntry>('RequestLogEntry').implement({
  description:
    'One authenticated request (README "Request log"): who, through which door, what, the answer and its time. Never a body, a query string, a header or a secret',
  fields: (t) => ({
    id: t.id({ resolve: (entry) => entry.id.toString() }),
    at: t.field({ type: 'DateTime', description: 'When the request finished', resolve: (e) => e.at }),
    keyId: t.exposeString('keyId', { nullable: true, description: 'The API key that made it' }),
    staffUserId: t.exposeString('staffUserId', {
      nullable: true,
      description: 'The signed-in staff member that made it (the dashboard)',
    }),
    door: t.field({ type: RequestDoorEnum, resolve: (e) => e.door as 'GRAPHQL' | 'REST' | 'MCP' }),
    method: t.exposeString('method'),
    route: t.exposeString('route', {
      description:
        'REST: the route template (`/api/v1/product/{id}`); GraphQL and MCP: the operation name (`anonymous` without one)',
    }),
    status: t.exposeInt('status', { description: 'The HTTP status answered' }),
    errorCode: t.exposeString('errorCode', {
      nullable: true,
      description: 'The error code answered, if any',
    }),
    durationMs: t.exposeFloat('durationMs'),
    requestId: t.exposeString('requestId', {
      description: 'The X-Request-Id answered (and in error bodies)',
    }),
    clientIp: t.exposeString('clientIp', { nullable: true }),
    cost: t.exposeInt('cost', {
      nullable: true,
      description: 'The query cost requested, when an operation ran',
    }),
  }),
});

const RequestLogPageRef = builder.objectRef<RequestLogPage>('RequestLogPage').implement({
  description: 'A page of the request log, newest first',
  fields: (t) => ({
    items: t.field({ type: [RequestLogEntryRef], resolve: (page) => page.items }),
    nextCursor: t.exposeString('nextCursor', {
      nullable: true,
      description: 'Pass as `after` for the next (older) page; null on the last',
    }),
  }),
});

builder.queryField('requestLog', (t) =>
  t.field({
    type: RequestLogPageRef,
    description: `The store's authenticated requests of the last REQUEST_LOG_RETENTION_DAYS, newest first`,
    authScopes: requireScope('API_KEYS', 'READ'),
    args: {
      keyId: t.arg.id(),
      staffUserId: t.arg.id(),
      statusClass: t.arg({ type: StatusClassEnum }),
      route: t.arg.string({ description: 'A route template or operation name, exactly' }),
      requestId: t.arg.string(),
      since: t.arg({ type: 'DateTime', description: 'From this moment (inclusive)' }),
      until: t.arg({ type: 'DateTime', description: 'Before this moment' }),
      limit: t.arg.int({ description: 'Entries per page, 1 to 100 (default 25)' }),
      after: t.arg.string({ description: 'The nextCursor of the page before' }),
    },
    resolve: (_root, args, ctx) =>
      listRequestLog(ctx, {
        ...args,
        keyId: args.keyId?.toString(),
        staffUserId: args.staffUserId?.toString(),
      }),
  }),
);
