import { readFileSync } from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../../src/schema';

describe('schema.graphql', () => {
  it('is the schema Pothos builds (run `npm run schema:print` after changing the schema)', () => {
    const committed = readFileSync(path.join(__dirname, '..', '..', 'schema.graphql'), 'utf8');
    expect(committed).toBe(`${printedSchema()}\n`);
  });
});
