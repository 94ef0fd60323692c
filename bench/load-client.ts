// A closed-loop HTTP load generator, run as its own process so that it does not share the servers'
// event loop. Input (JSON on stdin): { url, method, body?, keys, durationMs, concurrency, okStatus? }.
// Output: one JSON line { requests, rps, p50, p99, errors, unexpected (count per unexpected status) }.
//
// It uses node:http with keep-alive connections, one per concurrent client: on this machine that
// costs ~0.04-0.06 ms of CPU per request, GET or POST alike. Node's fetch cost 0.22 ms per GET and
// 0.36-0.47 ms per POST (web streams for the body), so with it the bare server measured fetch, and
// GraphQL's POSTs paid for the client's own work (bench/BASELINE.md, "The load generator").
import { Agent, type RequestOptions, request } from 'node:http';

export interface LoadInput {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  keys: string[];
  durationMs: number;
  concurrency: number;
  /** The status a good answer has (default 200); any other counts as an error. */
  okStatus?: number;
  /** Headers beside the key's (a conditional request's If-None-Match). */
  headers?: Record<string, string>;
}

/** What the client prints. */
export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers whose status was not the good one. */
  errors: number;
  /** How many answers had each status that was not the good one. */
  unexpected: Record<string, number>;
}

/** Sends one request of the target; resolves with its status once the whole body has arrived. */
function sender(input: LoadInput): (key: string) => Promise<number> {
  const url = new URL(input.url);
  const body = input.body === undefined ? undefined : Buffer.from(input.body);
  const agent = new Agent({ keepAlive: true, maxSockets: input.concurrency });
  const base: RequestOptions = {
    host: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    method: input.method,
    agent,
  };
  const bodyHeaders = {
    ...input.headers,
    ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
  };
  return (key) =>
    new Promise((resolve, reject) => {
      const req = request({ ...base, headers: { 'tt-api-key': key, ...bodyHeaders } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
}

async function main() {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadInput;
  const send = sender(input);
  const latencies: number[] = [];
  let errors = 0;
  const unexpected: Record<string, number> = {};
  let i = 0;
  const end = Date.now() + input.durationMs;
  await Promise.all(
    Array.from({ length: input.concurrency }, async () => {
      while (Date.now() < end) {
        const key = input.keys[i++ % input.keys.length] as string;
        const started = process.hrtime.bigint();
        const status = await send(key);
        if (status !== (input.okStatus ?? 200)) {
          errors++;
          unexpected[status] = (unexpected[status] ?? 0) + 1;
        }
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  process.stdout.write(
    `${JSON.stringify({ requests: latencies.length, rps: latencies.length / (input.durationMs / 1000), p50: at(0.5), p99: at(0.99), errors, unexpected })}\n`,
  );
  process.exit(0); // keep-alive sockets would hold the process open
}

void main();
