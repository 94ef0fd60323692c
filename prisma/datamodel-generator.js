#!/usr/bin/env node
// A Prisma generator that writes the full DMMF datamodel (columns, native types, indexes) to JSON,
// so the drift test can compare the migrated database with schema.prisma without Prisma's
// native schema engine (which cannot be downloaded on our machines).
const { writeFileSync, mkdirSync } = require('node:fs');
const { dirname } = require('node:path');
const { generatorHandler } = require('@prisma/generator-helper');

generatorHandler({
  onManifest: () => ({ prettyName: 'Datamodel JSON', defaultOutput: './generated/datamodel.json' }),
  onGenerate: async (options) => {
    const out = options.generator.output.value;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(options.dmmf.datamodel, null, 1)}\n`);
  },
});
