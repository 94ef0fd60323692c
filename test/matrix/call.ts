import type { TestServer } from '../helpers/server';
import { pathOf, type RouteUnderTest } from './routes';
import type { GraphqlSample, Sample } from './samples';

export type Door = 'REST' | 'GraphQL';
export const doors: Door[] = ['REST', 'GraphQL'];

/** One answer of either door, in the terms the matrices compare. */
export interface Answer {
  status: number;
  code: string | undefined;
  message: string | undefined;
  /** REST `data`; GraphQL `data[rootField]`. */
  data: unknown;
  /** A list route's rows, from either door. */
  items: Array<{ id?: string; keyId?: string }> | undefined;
}

/** An API key goes in `tt-api-key`, a dashboard session token (`tts_…`) as `Authorization: Bearer`. */
export const credentialHeaders = (credential: string): Record<string, string> =>
  credential.startsWith('tts_') ? { authorization: `Bearer ${credential}` } : { 'tt-api-key': credential };

/** A route's success status through REST. */
export const successStatus = (entry: RouteUnderTest) =>
  entry.route.status ?? (entry.route.result.kind === 'empty' ? 204 : 200);

/**
 * Runs a route's sample through REST (method, path, body) or through /graphql (the route's own
 * operation, with the variables the REST door would make of the same request).
 */
export async function callRoute(
  server: TestServer,
  door: Door,
  entry: RouteUnderTest,
  sample: Sample,
  credential: string,
): Promise<Answer> {
  if (door === 'REST') {
    const body = sample.body === undefined ? undefined : JSON.stringify(sample.body);
    const res = await server.request(pathOf(entry.route, sample.params), {
      method: entry.route.method,
      headers: { ...credentialHeaders(credential), ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
    });
    const json = res.status === 204 ? null : await res.json();
    const list = entry.route.result.kind === 'list';
    return {
      status: res.status,
      code: json?.code,
      message: json?.message,
      data: json?.data,
      items: list ? json?.data : undefined,
    };
  }
  const variables = {
    ...sample.params,
    ...(entry.route.body ? { [entry.route.body]: sample.body ?? {} } : {}),
  };
  const answer = await callGraphql(server, { query: entry.query, variables }, credential);
  const data = (answer.data as Record<string, unknown> | null)?.[entry.route.result.field];
  return {
    ...answer,
    data,
    items: entry.route.result.kind === 'list' ? (data as { items?: Answer['items'] })?.items : undefined,
  };
}

/** A GraphQL request; `data` is the whole `data` object, code and message the first error's. */
export async function callGraphql(
  server: TestServer,
  sample: GraphqlSample,
  credential: string,
): Promise<Answer> {
  const res = await server.request('/graphql', {
    method: 'POST',
    headers: { ...credentialHeaders(credential), 'content-type': 'application/json' },
    body: JSON.stringify(sample),
  });
  const json = await res.json();
  const error = json.errors?.[0];
  return {
    status: res.status,
    code: error?.extensions?.code,
    message: error?.message,
    data: json.data ?? null,
    items: undefined,
  };
}
