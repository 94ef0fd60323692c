import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { createDatabaseFromTemplate } from '../helpers/databases';
import {
  formatDrift,
  generatedFromSchema,
  loadDatamodel,
  schemaDrift,
  schemaPath,
} from '../helpers/schema-drift';

/**
 * The migrated database (a clone of the test template, which global-setup migrates with
 * src/db/migrate.ts) must match prisma/schema.prisma exactly: tables, columns, types, nullability,
 * enums, primary keys, indexes and foreign keys. The expected side comes from the DMMF datamodel that
 * `npm run generate` writes to prisma/generated/datamodel.json.
 */

async function withClone<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const database = await createDatabaseFromTemplate();
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
    await database.drop();
  }
}

describe('migrated database vs schema.prisma', () => {
  test('the generated datamodel comes from the current schema.prisma', () => {
    const generatedFrom = generatedFromSchema();
    if (generatedFrom === null) {
      throw new Error('prisma/generated is missing or unreadable: run `npm run generate`');
    }
    // Prisma formats the schema (aligns columns) before inlining it, so compare modulo whitespace.
    const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
    if (normalize(generatedFrom) !== normalize(readFileSync(schemaPath, 'utf8'))) {
      throw new Error(
        'prisma/generated was built from an older prisma/schema.prisma: run `npm run generate`, then rerun the drift test',
      );
    }
  });

  test('the migrations produce exactly the schema.prisma data model', async () => {
    const differences = await withClone((client) => schemaDrift(client));
    if (differences.length > 0) throw new Error(formatDrift(differences));
    expect(differences).toEqual([]);
  });

  test('the comparison reports drift (negative self-test on a scratch clone)', async () => {
    const differences = await withClone(async (client) => {
      await client.query('ALTER TABLE "Category" ADD COLUMN "oops" text');
      await client.query('DROP INDEX "Category_storeId_name_id_idx"');
      return schemaDrift(client);
    });
    expect(differences).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/column "Category"\."oops" is in the database but not in schema\.prisma/),
        expect.stringMatching(
          /index "Category_storeId_name_id_idx" on "Category"\("storeId", "name", "id"\) is missing/,
        ),
      ]),
    );
    expect(differences).toHaveLength(2);
    expect(formatDrift(differences)).toMatch(/differs from prisma\/schema\.prisma in 2 place\(s\):\n {2}- /);
  });

  test('the comparison reports type, nullability, enum, key and foreign-key drift', async () => {
    const differences = await withClone(async (client) => {
      await client.query('ALTER TABLE "Category" ALTER COLUMN "description" SET NOT NULL');
      await client.query('ALTER TABLE "Category" ALTER COLUMN "position" TYPE bigint');
      await client.query(`ALTER TYPE "Plan" ADD VALUE 'ENTERPRISE'`);
      await client.query('ALTER TABLE "Product" DROP CONSTRAINT "Product_categoryId_fkey"');
      await client.query(
        'ALTER TABLE "Product" ADD CONSTRAINT "Product_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "Category"("id") ON DELETE CASCADE ON UPDATE CASCADE',
      );
      await client.query('DROP INDEX "Category_storeId_slug_key"');
      await client.query('CREATE INDEX "Category_storeId_slug_key" ON "Category"("storeId", "slug")');
      await client.query('DROP TABLE "IdempotencyRecord"');
      return schemaDrift(client);
    });
    expect(differences.sort()).toEqual(
      [
        'column "Category"."description" is NOT NULL, schema.prisma says nullable',
        'column "Category"."position" has type bigint, schema.prisma says integer',
        'enum type "Plan" has values ("FREE", "STARTER", "PRO", "SCALE", "ENTERPRISE"), schema.prisma says ("FREE", "STARTER", "PRO", "SCALE")',
        'foreign key "Product"("categoryId") → "Category"("id") is ON DELETE CASCADE, schema.prisma says SET NULL',
        'index "Category_storeId_slug_key" on "Category"("storeId", "slug") is in the database but not in schema.prisma',
        'table "IdempotencyRecord" is missing from the database',
        'unique index "Category_storeId_slug_key" on "Category"("storeId", "slug") is missing from the database',
      ].sort(),
    );
  });

  test('the datamodel describes every model (sanity check of the expected side)', () => {
    const datamodel = loadDatamodel();
    expect(datamodel.models.length).toBeGreaterThan(10);
    expect(datamodel.indexes.some((i) => i.model === 'Category' && i.type === 'normal')).toBe(true);
  });
});
