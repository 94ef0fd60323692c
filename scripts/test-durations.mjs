#!/usr/bin/env node
// Writes test/helpers/durations.json, the seconds each test file took, from a jest run's JSON output
// (`npx jest --json --outputFile=/tmp/jest.json`): test/helpers/sequencer.js starts the longest first.
// Files of the old list that the run did not include keep their figure; files that are gone are dropped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [input] = process.argv.slice(2);
if (!input) {
  console.error('usage: node scripts/test-durations.mjs <jest --json output file>');
  process.exit(2);
}
const root = path.join(import.meta.dirname, '..');
const out = path.join(root, 'test', 'helpers', 'durations.json');
const old = JSON.parse(readFileSync(out, 'utf8'));
const run = JSON.parse(readFileSync(input, 'utf8'));
const durations = Object.fromEntries(
  Object.entries(old).filter(([file]) => existsSync(path.join(root, file))),
);
for (const file of run.testResults) {
  const seconds = (file.perfStats?.runtime ?? file.endTime - file.startTime) / 1000;
  durations[path.relative(root, file.name).split(path.sep).join('/')] = Math.round(seconds * 10) / 10;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([, a], [, b]) => b - a));
writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${run.testResults.length} files measured; ${out} lists ${Object.keys(sorted).length}`);
