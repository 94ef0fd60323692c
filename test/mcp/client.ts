import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '../helpers/server';

/** The SDK's own client over real HTTP, with the key in `tt-api-key` as an MCP host would send it. */
export async function connectMcp(
  server: TestServer,
  key: string | undefined,
  path = '/mcp',
): Promise<{ client: Client; close(): Promise<void> }> {
  const client = new Client({ name: 'commerce-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}${path}`), {
    requestInit: { headers: key === undefined ? {} : { 'tt-api-key': key } },
  });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** Calls a tool; the SDK client checks structuredContent against the tool's output schema. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text content of a result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** A raw JSON-RPC POST, for what the SDK client hides (statuses, headers, envelopes). */
export function rpc(
  server: TestServer,
  body: unknown,
  init: { key?: string; path?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return server.request(init.path ?? '/mcp', {
    method: 'POST',
    key: init.key,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...init.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const toolsList = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

/** structuredContent[key] of a successful result; fails with the tool's own text otherwise. */
export function resultOf<T>(result: CallToolResult, key: string): T {
  const value = result.structuredContent?.[key];
  if (result.isError || value === undefined) throw new Error(`no ${key} in the result: ${textOf(result)}`);
  return value as T;
}
