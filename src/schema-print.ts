import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths';
import { printedSchema } from './schema';

// `npm run schema:print`: writes schema.graphql; test/schema/printed.test.ts fails when it is stale.
const target = path.join(projectRoot, 'schema.graphql');
writeFileSync(target, `${printedSchema()}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)}`);
