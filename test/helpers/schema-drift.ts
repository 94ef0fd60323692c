import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from 'pg';

/**
 * Compares a migrated PostgreSQL database with schema.prisma, through the DMMF datamodel that
 * prisma/datamodel-generator.js writes (Prisma's native schema engine, which `prisma migrate diff`
 * needs, cannot be downloaded on our machines).
 *
 * Both sides are reduced to the same plain description (tables, columns, enums, primary keys,
 * indexes, foreign keys) and compared; every difference becomes one readable line.
 */

export const datamodelPath = path.join(__dirname, '..', '..', 'prisma', 'generated', 'datamodel.json');
export const schemaPath = path.join(__dirname, '..', '..', 'prisma', 'schema.prisma');
export const generatedClientClassPath = path.join(
  __dirname,
  '..',
  '..',
  'prisma',
  'generated',
  'client',
  'internal',
  'class.ts',
);

// ---------------------------------------------------------------------------------------------
// The parts of Prisma's DMMF datamodel we read (@prisma/dmmf's types, kept local: that package is
// only a transitive dependency).

export interface DmmfField {
  name: string;
  kind: 'scalar' | 'object' | 'enum' | 'unsupported';
  type: string;
  isList: boolean;
  isRequired: boolean;
  isUpdatedAt?: boolean;
  hasDefaultValue: boolean;
  default?: unknown;
  nativeType?: [string, string[]] | null;
  dbName?: string | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}

export interface DmmfModel {
  name: string;
  dbName: string | null;
  schema?: string | null;
  fields: DmmfField[];
  primaryKey: { name: string | null; fields: string[] } | null;
}

export interface DmmfEnum {
  name: string;
  dbName?: string | null;
  values: { name: string; dbName: string | null }[];
}

export interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  name?: string;
  dbName?: string;
  algorithm?: string;
  fields: { name: string; sortOrder?: 'asc' | 'desc' }[];
}

export interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

export function loadDatamodel(file = datamodelPath): Datamodel {
  return JSON.parse(readFileSync(file, 'utf8')) as Datamodel;
}

/**
 * The schema text the generated client was built from (Prisma inlines it), or null when it cannot
 * be found. The datamodel JSON is written by the same `prisma generate` run.
 */
export function generatedFromSchema(file = generatedClientClassPath): string | null {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const match = source.match(/"inlineSchema":\s*("(?:[^"\\]|\\.)*")/);
  return match ? (JSON.parse(match[1]!) as string) : null;
}

// ---------------------------------------------------------------------------------------------
// The common description both sides are reduced to.

export interface ColumnShape {
  /** As PostgreSQL's format_type() prints it, without identifier quotes: `text`, `"Plan"` → `Plan`, `text[]`. */
  type: string;
  nullable: boolean;
  /** Whether the column has a database-side default. */
  hasDefault: boolean;
}

export interface IndexShape {
  name: string;
  table: string;
  unique: boolean;
  /** Column names in order; descending columns as `name DESC`; expressions as `(expression)`. */
  columns: string[];
  method: string;
  /** Partial index predicate, if any (Prisma cannot describe these). */
  predicate: string | null;
}

export interface ForeignKeyShape {
  table: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

export interface SchemaShape {
  tables: Map<string, Map<string, ColumnShape>>;
  enums: Map<string, string[]>;
  /** Table → primary key (constraint name and columns in order). */
  primaryKeys: Map<string, { name: string; columns: string[] }>;
  /** Unique and normal indexes, not the primary keys' own indexes. */
  indexes: IndexShape[];
  foreignKeys: ForeignKeyShape[];
}

/** Tables that belong to the migration machinery, not to the data model. */
const IGNORED_TABLES = new Set(['_prisma_migrations']);

// ---------------------------------------------------------------------------------------------
// What schema.prisma says, in PostgreSQL's terms (Prisma's PostgreSQL connector mapping).

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  Bytes: 'bytea',
};

function withArgs(base: string, args: string[]): string {
  return args.length > 0 ? `${base}(${args.join(',')})` : base;
}

/** Native types (`@db.X(args)`) as format_type() prints them. */
function nativeTypeName([name, args]: [string, string[]]): string {
  switch (name) {
    case 'Text':
      return 'text';
    case 'Char':
      return withArgs('character', args);
    case 'VarChar':
      return withArgs('character varying', args);
    case 'Bit':
      return withArgs('bit', args);
    case 'VarBit':
      return withArgs('bit varying', args);
    case 'SmallInt':
      return 'smallint';
    case 'Integer':
      return 'integer';
    case 'BigInt':
      return 'bigint';
    case 'Oid':
      return 'oid';
    case 'Real':
      return 'real';
    case 'DoublePrecision':
      return 'double precision';
    case 'Decimal':
      return withArgs('numeric', args);
    case 'Money':
      return 'money';
    case 'Boolean':
      return 'boolean';
    case 'Date':
      return 'date';
    case 'Time':
      return `${withArgs('time', args)} without time zone`;
    case 'Timetz':
      return `${withArgs('time', args)} with time zone`;
    case 'Timestamp':
      return `${withArgs('timestamp', args)} without time zone`;
    case 'Timestamptz':
      return `${withArgs('timestamp', args)} with time zone`;
    case 'Json':
      return 'json';
    case 'JsonB':
      return 'jsonb';
    case 'Uuid':
      return 'uuid';
    case 'Xml':
      return 'xml';
    case 'Inet':
      return 'inet';
    case 'Citext':
      return 'citext';
    case 'ByteA':
      return 'bytea';
    default:
      return `${name.toLowerCase()}${args.length > 0 ? `(${args.join(',')})` : ''}`;
  }
}

/** Defaults Prisma Client fills in itself; they leave no default in the database. */
const CLIENT_SIDE_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

function hasDatabaseDefault(field: DmmfField): boolean {
  if (!field.hasDefaultValue) return false;
  const value = field.default;
  if (value && typeof value === 'object' && !Array.isArray(value) && 'name' in value) {
    return !CLIENT_SIDE_DEFAULTS.has(String((value as { name: string }).name));
  }
  return true;
}

/** Prisma's default constraint/index names: `{table}_{columns}_{suffix}`, cut to PostgreSQL's 63 bytes. */
function prismaConstraintName(table: string, columns: string[], suffix: string): string {
  const limit = 63;
  const base = [table, ...columns].join('_');
  const cut = base.length >= limit - 5 ? base.slice(0, limit - 5) : base;
  return `${cut}_${suffix}`;
}

const REFERENTIAL_ACTIONS: Record<string, string> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetNull: 'SET NULL',
  SetDefault: 'SET DEFAULT',
};

export function expectedShape(datamodel: Datamodel): SchemaShape {
  const tableOf = new Map(datamodel.models.map((model) => [model.name, model.dbName ?? model.name]));
  const enumName = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));
  const columnOf = (modelName: string, fieldName: string): string => {
    const model = datamodel.models.find((m) => m.name === modelName);
    const field = model?.fields.find((f) => f.name === fieldName);
    return field?.dbName ?? fieldName;
  };

  const shape: SchemaShape = {
    tables: new Map(),
    enums: new Map(datamodel.enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)])),
    primaryKeys: new Map(),
    indexes: [],
    foreignKeys: [],
  };

  for (const model of datamodel.models) {
    const table = tableOf.get(model.name)!;
    const columns = new Map<string, ColumnShape>();
    for (const field of model.fields) {
      if (field.kind === 'object') continue;
      let type: string;
      if (field.kind === 'enum') type = enumName.get(field.type) ?? field.type;
      else if (field.kind === 'unsupported') type = field.type;
      else if (field.nativeType) type = nativeTypeName(field.nativeType);
      else type = SCALAR_TYPES[field.type] ?? `<unknown Prisma type ${field.type}>`;
      if (field.isList) type = `${type}[]`;
      columns.set(field.dbName ?? field.name, {
        type,
        // Prisma creates scalar-list columns without NOT NULL, even for required lists.
        nullable: field.isList || !field.isRequired,
        hasDefault: hasDatabaseDefault(field),
      });
    }
    shape.tables.set(table, columns);

    for (const field of model.fields) {
      if (field.kind !== 'object' || !field.relationFromFields?.length) continue;
      const referencedTable = tableOf.get(field.type) ?? field.type;
      shape.foreignKeys.push({
        table,
        columns: field.relationFromFields.map((f) => columnOf(model.name, f)),
        referencedTable,
        referencedColumns: (field.relationToFields ?? []).map((f) => columnOf(field.type, f)),
        // Prisma's defaults: SetNull for optional relations, Restrict for required ones; Cascade on update.
        onDelete: REFERENTIAL_ACTIONS[field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull')]!,
        onUpdate: REFERENTIAL_ACTIONS[field.relationOnUpdate ?? 'Cascade']!,
      });
    }
  }

  for (const index of datamodel.indexes) {
    const table = tableOf.get(index.model) ?? index.model;
    const columnNames = index.fields.map((f) => columnOf(index.model, f.name));
    if (index.type === 'id') {
      shape.primaryKeys.set(table, {
        name: index.dbName ?? `${table}_pkey`,
        columns: columnNames,
      });
      continue;
    }
    const unique = index.type === 'unique';
    shape.indexes.push({
      name: index.dbName ?? prismaConstraintName(table, columnNames, unique ? 'key' : 'idx'),
      table,
      unique,
      columns: index.fields.map((f, i) =>
        f.sortOrder === 'desc' ? `${columnNames[i]} DESC` : columnNames[i]!,
      ),
      method: (index.algorithm ?? 'btree').toLowerCase(),
      predicate: null,
    });
  }
  return shape;
}

// ---------------------------------------------------------------------------------------------
// What the database has (schema `public`).

const unquote = (type: string) => type.replaceAll('"', '');

const ACTION_CODES: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

export async function actualShape(client: Client, schema = 'public'): Promise<SchemaShape> {
  const shape: SchemaShape = {
    tables: new Map(),
    enums: new Map(),
    primaryKeys: new Map(),
    indexes: [],
    foreignKeys: [],
  };

  const tables = await client.query<{ table: string }>(
    `SELECT c.relname AS table
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [schema],
  );
  for (const { table } of tables.rows) {
    if (!IGNORED_TABLES.has(table)) shape.tables.set(table, new Map());
  }

  const columns = await client.query<{
    table: string;
    column: string;
    type: string;
    notnull: boolean;
    hasdef: boolean;
  }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS notnull, a.atthasdef AS hasdef
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`,
    [schema],
  );
  for (const row of columns.rows) {
    shape.tables
      .get(row.table)
      ?.set(row.column, { type: unquote(row.type), nullable: !row.notnull, hasDefault: row.hasdef });
  }

  const enums = await client.query<{ name: string; values: string[] }>(
    `SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS values
       FROM pg_type t
       JOIN pg_namespace n ON n.oid = t.typnamespace
       JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE n.nspname = $1
      GROUP BY t.typname`,
    [schema],
  );
  for (const row of enums.rows) shape.enums.set(row.name, row.values);

  // One row per index column, in key order (generate_subscripts over indkey keeps order).
  const indexColumns = await client.query<{
    index: string;
    table: string;
    primary: boolean;
    unique: boolean;
    method: string;
    predicate: string | null;
    position: number;
    column: string | null;
    expression: string | null;
    descending: boolean;
  }>(
    `SELECT ic.relname AS index, tc.relname AS table, i.indisprimary AS primary, i.indisunique AS unique,
            am.amname AS method, pg_get_expr(i.indpred, i.indrelid) AS predicate,
            k.pos AS position, a.attname AS column,
            CASE WHEN i.indkey[k.pos] = 0 THEN pg_get_indexdef(i.indexrelid, k.pos + 1, true) END AS expression,
            (i.indoption[k.pos] & 1) = 1 AS descending
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class tc ON tc.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = tc.relnamespace
       JOIN pg_am am ON am.oid = ic.relam
       CROSS JOIN LATERAL generate_subscripts(i.indkey, 1) AS k(pos)
       LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[k.pos]
      WHERE n.nspname = $1 AND k.pos < i.indnkeyatts
      ORDER BY ic.relname, k.pos`,
    [schema],
  );
  const indexes = new Map<string, IndexShape & { primary: boolean }>();
  for (const row of indexColumns.rows) {
    if (IGNORED_TABLES.has(row.table)) continue;
    let index = indexes.get(row.index);
    if (!index) {
      index = {
        name: row.index,
        table: row.table,
        primary: row.primary,
        unique: row.unique,
        columns: [],
        method: row.method,
        predicate: row.predicate,
      };
      indexes.set(row.index, index);
    }
    const column = row.column ?? `(${row.expression})`;
    index.columns.push(row.descending ? `${column} DESC` : column);
  }

  const primaryKeys = await client.query<{ name: string; table: string; columns: string[] }>(
    `SELECT con.conname AS name, c.relname AS table,
            array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
      WHERE n.nspname = $1 AND con.contype = 'p'
      GROUP BY con.conname, c.relname`,
    [schema],
  );
  const primaryIndexNames = new Set<string>();
  for (const row of primaryKeys.rows) {
    if (IGNORED_TABLES.has(row.table)) continue;
    shape.primaryKeys.set(row.table, { name: row.name, columns: row.columns });
    primaryIndexNames.add(row.name);
  }
  for (const { primary, ...index } of indexes.values()) {
    // The primary key's own index is compared as the primary key.
    if (primary && primaryIndexNames.has(index.name)) continue;
    shape.indexes.push(index);
  }

  const foreignKeys = await client.query<{
    table: string;
    columns: string[];
    referenced_table: string;
    referenced_columns: string[];
    deltype: string;
    updtype: string;
  }>(
    `SELECT c.relname AS table, rc.relname AS referenced_table,
            ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
            ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord)
              AS referenced_columns,
            con.confdeltype AS deltype, con.confupdtype AS updtype
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_class rc ON rc.oid = con.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND con.contype = 'f'`,
    [schema],
  );
  for (const row of foreignKeys.rows) {
    if (IGNORED_TABLES.has(row.table)) continue;
    shape.foreignKeys.push({
      table: row.table,
      columns: row.columns,
      referencedTable: row.referenced_table,
      referencedColumns: row.referenced_columns,
      onDelete: ACTION_CODES[row.deltype] ?? row.deltype,
      onUpdate: ACTION_CODES[row.updtype] ?? row.updtype,
    });
  }
  return shape;
}

// ---------------------------------------------------------------------------------------------
// The comparison.

const list = (items: string[]) => `(${items.map((i) => `"${i}"`).join(', ')})`;
const sorted = <T>(items: Iterable<T>) => [...items].sort();

function describeIndex(index: IndexShape): string {
  const kind = index.unique ? 'unique index' : 'index';
  const extras = [
    index.method !== 'btree' ? `using ${index.method}` : '',
    index.predicate ? `where ${index.predicate}` : '',
  ].filter(Boolean);
  return `${kind} "${index.name}" on "${index.table}"${list(index.columns)}${extras.length ? ` ${extras.join(' ')}` : ''}`;
}

const indexIdentity = (index: IndexShape) =>
  JSON.stringify([index.table, index.unique, index.columns, index.method, index.predicate]);

function describeForeignKey(fk: ForeignKeyShape): string {
  return `foreign key "${fk.table}"${list(fk.columns)} → "${fk.referencedTable}"${list(fk.referencedColumns)}`;
}

const foreignKeyIdentity = (fk: ForeignKeyShape) =>
  JSON.stringify([fk.table, fk.columns, fk.referencedTable, fk.referencedColumns]);

/** Every difference between the expected (schema.prisma) and actual (database) shapes, one line each. */
export function compareShapes(expected: SchemaShape, actual: SchemaShape): string[] {
  const differences: string[] = [];

  // Tables and columns.
  for (const table of sorted(expected.tables.keys())) {
    if (!actual.tables.has(table)) differences.push(`table "${table}" is missing from the database`);
  }
  for (const table of sorted(actual.tables.keys())) {
    if (!expected.tables.has(table))
      differences.push(`table "${table}" is in the database but not in schema.prisma`);
  }
  for (const table of sorted(expected.tables.keys())) {
    const want = expected.tables.get(table)!;
    const have = actual.tables.get(table);
    if (!have) continue;
    for (const column of sorted(want.keys())) {
      const w = want.get(column)!;
      const h = have.get(column);
      const where = `column "${table}"."${column}"`;
      if (!h) {
        differences.push(`${where} is missing from the database`);
        continue;
      }
      if (w.type !== h.type) differences.push(`${where} has type ${h.type}, schema.prisma says ${w.type}`);
      if (w.nullable !== h.nullable) {
        differences.push(
          `${where} is ${h.nullable ? 'nullable' : 'NOT NULL'}, schema.prisma says ${w.nullable ? 'nullable' : 'NOT NULL'}`,
        );
      }
      if (w.hasDefault !== h.hasDefault) {
        differences.push(
          `${where} ${h.hasDefault ? 'has a default' : 'has no default'}, schema.prisma ${w.hasDefault ? 'declares one' : 'declares none'}`,
        );
      }
    }
    for (const column of sorted(have.keys())) {
      if (!want.has(column)) {
        differences.push(`column "${table}"."${column}" is in the database but not in schema.prisma`);
      }
    }
  }

  // Enums.
  for (const name of sorted(expected.enums.keys())) {
    const want = expected.enums.get(name)!;
    const have = actual.enums.get(name);
    if (!have) differences.push(`enum type "${name}" is missing from the database`);
    else if (JSON.stringify(want) !== JSON.stringify(have)) {
      differences.push(`enum type "${name}" has values ${list(have)}, schema.prisma says ${list(want)}`);
    }
  }
  for (const name of sorted(actual.enums.keys())) {
    if (!expected.enums.has(name))
      differences.push(`enum type "${name}" is in the database but not in schema.prisma`);
  }

  // Primary keys (only for tables both sides have; a missing table is already reported).
  const bothTables = sorted(expected.tables.keys()).filter((t) => actual.tables.has(t));
  for (const table of bothTables) {
    const want = expected.primaryKeys.get(table);
    const have = actual.primaryKeys.get(table);
    if (want && !have)
      differences.push(`primary key of "${table}"${list(want.columns)} is missing from the database`);
    else if (!want && have)
      differences.push(`table "${table}" has primary key ${list(have.columns)} not in schema.prisma`);
    else if (want && have) {
      if (JSON.stringify(want.columns) !== JSON.stringify(have.columns)) {
        differences.push(
          `primary key of "${table}" is ${list(have.columns)}, schema.prisma says ${list(want.columns)}`,
        );
      }
      if (want.name !== have.name) {
        differences.push(
          `primary key of "${table}" is named "${have.name}", Prisma would name it "${want.name}"`,
        );
      }
    }
  }

  // Indexes: matched by what they are (table, uniqueness, columns, method); names compared after.
  const haveIndexes = new Map<string, IndexShape[]>();
  for (const index of actual.indexes) {
    const key = indexIdentity(index);
    haveIndexes.set(key, [...(haveIndexes.get(key) ?? []), index]);
  }
  for (const want of expected.indexes) {
    if (!actual.tables.has(want.table)) continue;
    const candidates = haveIndexes.get(indexIdentity(want)) ?? [];
    const match = candidates.find((c) => c.name === want.name) ?? candidates[0];
    if (!match) {
      differences.push(`${describeIndex(want)} is missing from the database`);
      continue;
    }
    candidates.splice(candidates.indexOf(match), 1);
    if (match.name !== want.name) {
      differences.push(
        `${describeIndex(match)} is named "${match.name}", Prisma would name it "${want.name}"`,
      );
    }
  }
  for (const rest of haveIndexes.values()) {
    for (const index of rest) {
      if (expected.tables.has(index.table)) {
        differences.push(`${describeIndex(index)} is in the database but not in schema.prisma`);
      }
    }
  }

  // Foreign keys: matched by columns and target; actions compared after.
  const haveKeys = new Map<string, ForeignKeyShape[]>();
  for (const fk of actual.foreignKeys) {
    const key = foreignKeyIdentity(fk);
    haveKeys.set(key, [...(haveKeys.get(key) ?? []), fk]);
  }
  for (const want of expected.foreignKeys) {
    if (!actual.tables.has(want.table)) continue;
    const candidates = haveKeys.get(foreignKeyIdentity(want)) ?? [];
    const match = candidates.shift();
    if (!match) {
      differences.push(
        `${describeForeignKey(want)} (ON DELETE ${want.onDelete}) is missing from the database`,
      );
      continue;
    }
    if (match.onDelete !== want.onDelete) {
      differences.push(
        `${describeForeignKey(want)} is ON DELETE ${match.onDelete}, schema.prisma says ${want.onDelete}`,
      );
    }
    if (match.onUpdate !== want.onUpdate) {
      differences.push(
        `${describeForeignKey(want)} is ON UPDATE ${match.onUpdate}, schema.prisma says ${want.onUpdate}`,
      );
    }
  }
  for (const rest of haveKeys.values()) {
    for (const fk of rest) {
      if (expected.tables.has(fk.table)) {
        differences.push(`${describeForeignKey(fk)} is in the database but not in schema.prisma`);
      }
    }
  }

  return differences;
}

/** Compares the database `client` is connected to with the datamodel; one line per difference. */
export async function schemaDrift(client: Client, datamodel: Datamodel = loadDatamodel()): Promise<string[]> {
  return compareShapes(expectedShape(datamodel), await actualShape(client));
}

export function formatDrift(differences: string[]): string {
  return differences.length === 0
    ? 'no differences'
    : `The migrated database differs from prisma/schema.prisma in ${differences.length} place(s):\n${differences
        .map((d) => `  - ${d}`)
        .join('\n')}`;
}
