/** One REST route: method + path mapped onto one GraphQL operation of the schema. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type RouteResult =
  /** `data[field]` is `{ items, pagination }`; answered with the list envelope (docs/design.md "Envelopes"). */
  | { kind: 'list'; field: string }
  /** `data[field]` is one object; answered as `{ success: true, data }`. */
  | { kind: 'item'; field: string }
  /** Nothing to return: `204 No Content`. */
  | { kind: 'empty'; field: string };

export interface RestRoute {
  method: HttpMethod;
  /** Relative to /api/v1, with `{name}` path parameters (OpenAPI's syntax). */
  path: string;
  /** A GraphQL document with exactly one named operation; its variables are the route's parameters. */
  operation: string;
  summary: string;
  tag: string;
  /** `apiKey` (default): the request must carry an API key. `none`: public. */
  auth?: 'apiKey' | 'none';
  /** The variable that receives the JSON request body, when the route takes one. */
  body?: string;
  result: RouteResult;
  /** Success status; defaults to 200 (204 for `empty`). */
  status?: number;
}

export const route = (definition: RestRoute): RestRoute => definition;
