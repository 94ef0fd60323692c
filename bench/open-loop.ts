import { Agent, request } from 'node:http';

/** Open loop: one GET every 1/rate s for the duration; each latency from when the request was due. */
export async function openLoop(url: string, keys: string[], rate: number, durationMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const count = Math.floor((durationMs / 1000) * rate);
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      new Promise<void>((resolve) => {
        const req = request(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname + target.search,
            agent,
            headers: { 'tt-api-key': keys[i % keys.length] as string },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              if (res.statusCode !== 200) errors++;
              latencies.push(performance.now() - due);
              resolve();
            });
          },
        );
        req.on('error', () => {
          errors++;
          resolve();
        });
        req.end();
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { requests: latencies.length, p50: at(0.5), p99: at(0.99), max: at(1), errors };
}
