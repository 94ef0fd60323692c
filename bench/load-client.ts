// A closed-loop HTTP load generator, run as its own process so that it does not share the servers'
// event loop. Input (JSON on argv[2]): { url, method, body?, keys, durationMs, concurrency }.
// Output: one JSON line { requests, rps, p50, p99, errors }.
const options = JSON.parse(process.argv[2] as string) as {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  keys: string[];
  durationMs: number;
  concurrency: number;
};

async function main() {
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const end = Date.now() + options.durationMs;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (Date.now() < end) {
        const key = options.keys[i++ % options.keys.length] as string;
        const started = process.hrtime.bigint();
        const res = await fetch(options.url, {
          method: options.method,
          headers: { 'tt-api-key': key, ...(options.body ? { 'content-type': 'application/json' } : {}) },
          body: options.body,
        });
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  process.stdout.write(
    `${JSON.stringify({ requests: latencies.length, rps: latencies.length / (options.durationMs / 1000), p50: at(0.5), p99: at(0.99), errors })}\n`,
  );
}

void main();
