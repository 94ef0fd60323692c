#!/usr/bin/env node
// Generates the Prisma client, the Pothos types and the datamodel JSON offline.
// Prisma's CLI insists on a schema-engine binary path even though `generate` never runs it;
// the engine cannot be downloaded on our machines, so any existing file satisfies the check.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(__dirname, 'generate.js');
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
// Generators named by command (prisma-pothos-types) are found on the project's bin path.
env.PATH = [path.join(__dirname, '..', 'node_modules', '.bin'), env.PATH].join(path.delimiter);
env.CHECKPOINT_DISABLE = '1';
execFileSync(
  process.execPath,
  [path.join(__dirname, '..', 'node_modules', 'prisma', 'build', 'index.js'), 'generate'],
  {
    cwd: path.join(__dirname, '..'),
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
