// How long one admin CLI command takes from the shell, start to exit (issue 15: aim under 1.5 s):
// `store list` against a migrated database through `npm run cli` with the build fresh (what follows
// `npm start`) and stale (tsx compiles the sources), beside a bare `node -e ''` started the same way,
// alternating, medians compared. Absolute times move with this shared machine; the ratio less so.
import { execFileSync, spawnSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { withBenchDatabase } from './database';

const root = path.join(__dirname, '..');
const ROUNDS = 7;
const TARGET_SECONDS = 1.5;

function seconds(command: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

withBenchDatabase('cli', async (databaseUrl) => {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  const built = path.join(root, 'dist', 'src', 'cli', 'index.js');
  const runs = { node: [] as number[], fresh: [] as number[], stale: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.node.push(seconds(process.execPath, ['-e', ''], env));
    const now = new Date();
    utimesSync(built, now, now); // the build is newer than every source
    runs.fresh.push(seconds('npm', ['run', '-s', 'cli', '--', 'store', 'list'], env));
    const old = new Date(0);
    utimesSync(built, old, old); // a source is newer than the build: tsx runs the sources
    runs.stale.push(seconds('npm', ['run', '-s', 'cli', '--', 'store', 'list'], env));
  }
  const now = new Date();
  utimesSync(built, now, now);
  const [node, fresh, stale] = [median(runs.node), median(runs.fresh), median(runs.stale)];
  console.log(`node -e '' ${node.toFixed(3)} s`);
  console.log(
    `npm run cli -- store list, build fresh: ${fresh.toFixed(3)} s (${(fresh / node).toFixed(1)}× node)`,
  );
  console.log(
    `npm run cli -- store list, from sources: ${stale.toFixed(3)} s (${(stale / node).toFixed(1)}× node)`,
  );
  console.log(`target < ${TARGET_SECONDS} s: ${Math.max(fresh, stale) < TARGET_SECONDS ? 'met' : 'not met'}`);
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
