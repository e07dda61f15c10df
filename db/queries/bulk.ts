// Bulk inserts of many rows in one statement: the rows travel as one JSON document and
// json_to_recordset turns it into a table — one parameter instead of one per value, because
// binding millions of parameters costs more than the database work itself (db/queries/ingest.ts);
// or, for a table written without ON CONFLICT or RETURNING, as a binary COPY (copyRows).
import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { copyFrom, type Db } from "../client";
import { BinaryCopy, type CopyField } from "../copy-binary";

/** Blob hashes are hex digests: anything else is refused rather than spliced into SQL. */
export const hashArray = (hashes: readonly string[]) => {
  for (const h of hashes) if (!/^[0-9a-f]+$/.test(h)) throw new Error(`not a blob hash: ${JSON.stringify(h)}`);
  return sql.raw(`'{${hashes.join(",")}}'::text[]`);
};

/** Rows per statement, and JSON characters per statement (the blob contents dominate). */
export const CHUNK_ROWS = 2000;
export const CHUNK_CHARS = 8 * 1024 * 1024;

export function chunks<T>(rows: T[], size = CHUNK_ROWS, weight?: (row: T) => number): T[][] {
  const out: T[][] = [];
  let part: T[] = [];
  let chars = 0;
  for (const row of rows) {
    const w = weight ? weight(row) : 0;
    if (part.length > 0 && (part.length >= size || chars + w > CHUNK_CHARS)) {
      out.push(part);
      part = [];
      chars = 0;
    }
    part.push(row);
    chars += w;
  }
  if (part.length > 0) out.push(part);
  return out;
}

export interface Recordset {
  /** the table's column names, for INSERT INTO t (…) */
  columns: SQL;
  /** the recordset's fields, for SELECT … FROM json_to_recordset(…) AS r(…) */
  fields: SQL;
  /** the field list with types, for AS r(…) */
  definition: SQL;
}

/**
 * How `keys` (TypeScript property names of a drizzle table) are read from a JSON array of row
 * objects: the recordset's fields are named like the properties, so rows need no renaming, and
 * typed like the columns, so PostgreSQL parses numbers, timestamps and jsonb itself.
 */
export function recordset<T extends PgTable>(table: T, keys: readonly (keyof T["$inferInsert"] & string)[]): Recordset {
  const all = getTableColumns(table) as Record<string, { name: string; getSQLType(): string }>;
  const cols = keys.map((key) => {
    const col = all[key];
    if (!col) throw new Error(`no column ${key}`);
    return col;
  });
  return {
    columns: sql.join(cols.map((c) => sql.identifier(c.name)), sql`, `),
    fields: sql.join(keys.map((k) => sql`r.${sql.identifier(k)}`), sql`, `),
    definition: sql.join(cols.map((c, i) => sql`${sql.identifier(keys[i] ?? "")} ${sql.raw(fieldType(c.getSQLType()))}`), sql`, `),
  };
}

/** serial columns are integers with a default; a recordset field needs the plain type. */
function fieldType(columnType: string): string {
  const serial: Record<string, string> = { smallserial: "smallint", serial: "integer", bigserial: "bigint" };
  return serial[columnType] ?? columnType;
}

export interface InsertOptions {
  /** more columns and the values they get (from the run, or from `fields`) */
  extra?: { columns: SQL; values: SQL; fields?: SQL };
  /** ON CONFLICT …, RETURNING … */
  tail?: SQL;
}

/** INSERT … SELECT from one JSON parameter holding all the rows. */
export function insertJson(table: PgTable, set: Recordset, rows: unknown[], opts: InsertOptions = {}): SQL {
  const { extra, tail = sql`` } = opts;
  const columns = extra ? sql`${set.columns}, ${extra.columns}` : set.columns;
  const values = extra ? sql`${set.fields}, ${extra.values}` : set.fields;
  const definition = extra?.fields ? sql`${set.definition}, ${extra.fields}` : set.definition;
  return sql`INSERT INTO ${table} (${columns}) SELECT ${values} FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(${definition}) ${tail}`;
}

/**
 * Rows of a table through binary COPY (db/copy-binary.ts), in streams of about CHUNK_CHARS bytes:
 * for rows written without ON CONFLICT or RETURNING. Nothing is escaped or parsed as text (a
 * search vector arrives in its binary form): docs/benchmarks.md, session 28.
 */
export async function copyRows<T>(db: Db, table: PgTable, columns: PgColumn[], rows: readonly T[], fields: (row: T) => CopyField[]): Promise<void> {
  if (rows.length === 0) return;
  const statement = `COPY ${getTableName(table)} (${columns.map((c) => `"${c.name}"`).join(", ")}) FROM STDIN (FORMAT binary)`;
  let copy = new BinaryCopy(columns.length);
  for (const row of rows) {
    copy.row(fields(row));
    if (copy.size >= CHUNK_CHARS) {
      await copyFrom(db, statement, copy.end());
      copy = new BinaryCopy(columns.length);
    }
  }
  if (copy.rows > 0) await copyFrom(db, statement, copy.end());
}
