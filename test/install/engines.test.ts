import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/**
 * Issue 15 item 12: `npm ci` on this project's Node is clean. Every installed package's `engines.node`
 * admits the running Node (npm would warn EBADENGINE otherwise), and so do the project's own
 * `engines` and `.nvmrc`. package.json "overrides" pins the few dependencies whose newest releases
 * only raised their engines (README "Install notes").
 */
const root = path.join(__dirname, '..', '..');

/** Every package.json under node_modules, nested ones included. */
function* installedPackages(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const full = path.join(dir, entry);
    if (entry.startsWith('@')) {
      yield* installedPackages(full);
      continue;
    }
    yield path.join(full, 'package.json');
    yield* installedPackages(path.join(full, 'node_modules'));
  }
}

it('installs only packages whose engines admit this Node', () => {
  const refusing: string[] = [];
  let checked = 0;
  for (const file of installedPackages(path.join(root, 'node_modules'))) {
    let pkg: { name?: string; version?: string; engines?: { node?: string } };
    try {
      pkg = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    checked++;
    const range = pkg.engines?.node;
    if (range && !semver.satisfies(process.version, range, { includePrerelease: true }))
      refusing.push(`${pkg.name}@${pkg.version} wants node ${range}`);
  }
  expect(checked).toBeGreaterThan(300);
  expect(refusing).toEqual([]);
});

it("states this Node in the project's engines and .nvmrc", () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  const nvmrc = readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
  expect(process.version.startsWith(`v${nvmrc}`)).toBe(true);
});
