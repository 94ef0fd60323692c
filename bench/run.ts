// `npm run bench`: runs every benchmark scenario in turn. Each prints its own numbers and target.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const scenarios = [
  'auth-overhead.ts',
  'ratelimit.ts',
  'product-throughput.ts',
  'webhooks.ts',
  'webhook-health.ts',
  'request-log-query.ts',
  'request-log-cost.ts',
  'request-log-write.ts',
  'cli-start.ts',
  'tenant-isolation.ts',
  'page-statement.ts',
  'executor.ts',
  'cost.ts',
  'refusals.ts',
  'peers.ts',
  'conditional.ts',
  'cluster.ts',
];
for (const scenario of scenarios) {
  console.log(`\n== ${scenario}`);
  execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, scenario)], { stdio: 'inherit' });
}
