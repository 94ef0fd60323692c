import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { root } from '../helpers/process';

/**
 * No import cycles (issue 16): `npm run cycles` (dpdm, type-only imports included) over every entry
 * point of the service, and the same check shown to fail on a cycle.
 */
jest.setTimeout(60_000);

const run = (args: string[], cwd: string) =>
  promisify(execFile)(process.execPath, args, { cwd }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

const dpdm = path.join(root, 'node_modules', 'dpdm', 'lib', 'bin', 'dpdm.js');

it('finds no import cycle from any entry point of the service', async () => {
  const script = JSON.parse(
    (
      await promisify(execFile)(
        process.execPath,
        ['-p', 'JSON.stringify(require("./package.json").scripts.cycles)'],
        { cwd: root },
      )
    ).stdout,
  ) as string;
  const args = script
    .replace(/^dpdm /, '')
    .match(/"[^"]*"|\S+/g)
    ?.map((arg) => arg.replace(/^"(.*)"$/, '$1')) as string[];
  const result = await run([dpdm, ...args], root);
  expect(result.stdout).toContain('no circular dependency was found');
  expect(result.code).toBe(0);
});

it('is a check that fails on a cycle', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cycles-'));
  try {
    await writeFile(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = { b: B };\n");
    await writeFile(path.join(dir, 'b.ts'), "import type { A } from './a';\nexport type B = { a?: A };\n");
    const result = await run([dpdm, '--no-warning', '--no-tree', '--exit-code', 'circular:1', 'a.ts'], dir);
    expect(result.code).toBe(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
