// Writes dashboard/src/graphql-env.d.ts, the schema's types for gql.tada, from schema.graphql (the
// printed schema the server checks in), so every GraphQL document of a page is typed against the
// schema, and a schema change that breaks a page fails `npm run typecheck` and the build.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { outputIntrospectionFile } from '@gql.tada/internal';
import { buildSchema, introspectionFromSchema } from 'graphql';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const schema = buildSchema(readFileSync(path.join(root, 'schema.graphql'), 'utf8'));
const output = outputIntrospectionFile(introspectionFromSchema(schema), { fileType: '.d.ts' });
writeFileSync(path.join(root, 'dashboard', 'src', 'graphql-env.d.ts'), output);
