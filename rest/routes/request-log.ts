import { route } from '../route';

export const requestLogRoutes = [
  route({
    method: 'GET',
    path: '/request-log',
    tag: 'Request log',
    summary:
      'The store’s authenticated requests, newest first (filter by key, staff member, status class, route or operation, request id, time; `after` the last page’s nextCursor). Never bodies or secrets',
    operation: `query RequestLog($keyId: ID, $staffUserId: ID, $statusClass: RequestStatusClass, $route: String,
        $requestId: String, $since: DateTime, $until: DateTime, $limit: Int, $after: String) {
      requestLog(keyId: $keyId, staffUserId: $staffUserId, statusClass: $statusClass, route: $route,
          requestId: $requestId, since: $since, until: $until, limit: $limit, after: $after) {
        items { id at keyId staffUserId door method route status errorCode durationMs requestId clientIp cost }
        nextCursor
      }
    }`,
    result: { kind: 'item', field: 'requestLog' },
  }),
];
