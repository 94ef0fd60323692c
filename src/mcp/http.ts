import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, RequestHandler, Response } from 'express';
import type { Authenticate } from '../auth/authenticate';
import { presentedCredential } from '../auth/credentials';
import { AppError, classifyError } from '../errors';
import type { Pipeline } from '../graphql/pipeline';
import { sendRestError } from '../http/respond';
import type { CompiledTool } from './compile';
import { createMcpServer } from './server';

export interface McpDeps {
  pipeline: Pipeline;
  authenticate: Authenticate;
  tools: readonly CompiledTool[];
  /** The JSON body reader every door uses (size limit, content type, INVALID_JSON). */
  readBody: (req: Request, res: Response) => Promise<void>;
  /** The session cookie's name (src/auth/session-cookie.ts), to tell a session from no credential. */
  sessionCookieName: string;
}

/** The JSON-RPC requests (messages with a method and an id) in a body: one for anything else. */
export function requestsIn(body: unknown): number {
  if (!Array.isArray(body)) return 1;
  const requests = body.filter(
    (message) => typeof message === 'object' && message !== null && 'method' in message && 'id' in message,
  ).length;
  return Math.max(1, requests);
}

/**
 * POST /mcp: MCP Streamable HTTP, stateless (a new server and transport per request, JSON responses).
 * API-key authentication, rate limit and usage counting are the other doors' own and come first; a failure
 * there is an HTTP status with the error envelope. Inside the protocol, failures are JSON-RPC errors
 * or tool errors. GET (a server-sent event stream) and DELETE (ending a session) have no meaning
 * without sessions: 405, as the SDK's stateless examples answer.
 */
export function createMcpHandler(deps: McpDeps): RequestHandler {
  return async (req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      res.status(405).json({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Method not allowed: ${req.method}; this stateless endpoint takes POST`,
        },
        id: null,
      });
      return;
    }
    try {
      // docs/design.md "MCP": an API key is required; a dashboard session (header or cookie) is not one.
      if (presentedCredential(req.headers, deps.sessionCookieName).kind === 'session')
        throw new AppError('API_KEY_REQUIRED', 'The MCP endpoint takes an API key, not a dashboard session');
      // The body is read first (bounded like every door's) so that a JSON-RPC batch counts each of
      // its calls against the rate limit and usage: README "Rate limit".
      await deps.readBody(req, res);
      await deps.authenticate(req, res, { requests: requestsIn(req.body) });
    } catch (error) {
      const { appError, unexpected } = classifyError(error);
      if (unexpected) req.state.log.error({ err: error }, 'unexpected error before the MCP protocol');
      sendRestError(res, appError);
      return;
    }

    const server = createMcpServer(deps.pipeline, deps.tools, { req, res, door: 'mcp' });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      req.state.log.error({ err: error }, 'unexpected error in the MCP transport');
      if (!res.headersSent)
        res
          .status(500)
          .json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
    }
  };
}
