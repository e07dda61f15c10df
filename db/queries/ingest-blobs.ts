// An import's new blobs and check readings: each stored once by its key (a blob's content hash, a
// reading's blob hash and reader), written by binary COPY (db/copy-binary.ts) instead of a JSON
// document: the file and log contents are most of an import's bytes, and escaping them into JSON,
// binding that as a parameter and parsing it again at the server cost more than storing them
// (docs/benchmarks.md, session 29); a reading, JSON itself, was parsed twice there (session 44).
import { sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { StoredContent } from "@/lib/ingest/content";
import type { CopyField } from "../copy-binary";
import { execRows, type Db } from "../client";
import { blobs, checkReadings } from "../schema";
import { CHUNK_ROWS, chunks, copyRows, hashArray, insertJson } from "./bulk";
import { BLOBS, type ReadingRow } from "./ingest-rows";

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = "23505";

/** How the rows of one keyed table are written by `copyNew`. */
interface KeyedRows<T> {
  table: PgTable;
  columns: PgColumn[];
  fields(row: T): CopyField[];
  key(row: T): string;
  /** the rows' size, for chunking */
  weight(row: T): number;
  /** SELECT the keys (as `key`) of those of `rows` the table holds */
  stored(rows: T[]): SQL;
  /** INSERT `rows` ON CONFLICT DO NOTHING RETURNING the keys (as `key`) it inserted */
  insertIgnoring(rows: T[]): SQL;
}

/**
 * Writes the rows of `items` the table lacks (each key once per call); returns those written. The
 * keys already stored are asked first and the rest copied in under a savepoint. A concurrent
 * import can still commit one of them in between: the copy then fails on the primary key, and
 * that chunk goes in again as an INSERT … ON CONFLICT DO NOTHING. Inside a transaction only.
 */
async function copyNew<T>(tx: Db, spec: KeyedRows<T>, items: readonly T[], opts: { askFirst?: boolean }): Promise<T[]> {
  const unique = [...new Map(items.map((r) => [spec.key(r), r])).values()];
  const written: T[] = [];
  for (const part of chunks(unique, CHUNK_ROWS, spec.weight)) {
    // (`askFirst: false`, tests only: as if another import had committed them since.)
    const have = new Set(opts.askFirst === false ? [] : (await execRows<{ key: string }>(tx, spec.stored(part))).map((r) => r.key));
    const fresh = have.size === 0 ? part : part.filter((r) => !have.has(spec.key(r)));
    if (fresh.length === 0) continue;
    await execRows(tx, sql`SAVEPOINT copy_new`);
    try {
      await copyRows(tx, spec.table, spec.columns, fresh, spec.fields);
      await execRows(tx, sql`RELEASE SAVEPOINT copy_new`);
      written.push(...fresh);
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      await execRows(tx, sql`ROLLBACK TO SAVEPOINT copy_new`);
      const inserted = new Set((await execRows<{ key: string }>(tx, spec.insertIgnoring(fresh))).map((r) => r.key));
      written.push(...fresh.filter((r) => inserted.has(spec.key(r))));
    }
  }
  return written;
}

/** A blob's key: its content hash. */
export const blobKey = (b: StoredContent): string => b.hash;

const BLOB_ROWS: KeyedRows<StoredContent> = {
  table: blobs,
  columns: [blobs.hash, blobs.size, blobs.encoding, blobs.content],
  fields: (b) => [{ text: b.hash }, { int4: b.size }, { text: b.encoding }, { text: b.content }],
  key: blobKey,
  weight: (b) => b.content.length + 100,
  stored: (part) => sql`SELECT hash AS key FROM ${blobs} WHERE hash = ANY(${hashArray(part.map((b) => b.hash))})`,
  insertIgnoring: (part) =>
    insertJson(
      blobs,
      BLOBS,
      part.map((b) => ({ hash: b.hash, size: b.size, encoding: b.encoding, content: b.content })),
      { tail: sql`ON CONFLICT DO NOTHING RETURNING hash AS key` },
    ),
};

/** A reading's key: its blob hash (64 hex digits, so the two never run together) and reader. */
export const readingKey = (r: { hash: string; reader: string }): string => r.hash + r.reader;

const READING_ROWS: KeyedRows<ReadingRow> = {
  table: checkReadings,
  columns: [checkReadings.hash, checkReadings.reader, checkReadings.reading],
  // json's binary form is its text: the server validates it once, as it stores it.
  fields: (r) => [{ text: r.hash }, { text: r.reader }, { text: r.json }],
  key: readingKey,
  weight: (r) => r.json.length + 100,
  stored: (part) =>
    sql`SELECT hash || reader AS key FROM ${checkReadings} WHERE hash = ANY(${hashArray([...new Set(part.map((r) => r.hash))])})`,
  // Each reading as a JSON string, cast to json after: json_to_recordset would turn a json field
  // holding \u0000 into text on the way and fail, where COPY stores it.
  insertIgnoring: (part) =>
    sql`INSERT INTO ${checkReadings} (hash, reader, reading)
        SELECT r.hash, r.reader, r.json::json FROM json_to_recordset(${JSON.stringify(part)}::json) AS r(hash text, reader text, json text)
        ON CONFLICT DO NOTHING RETURNING hash || reader AS key`,
};

/** The items whose key `seen` lacks, each once; their keys are added to `seen` (what an import
 * wrote or found stored already is not asked for again). */
export function firstSeen<T>(items: readonly T[], key: (item: T) => string, seen: Set<string>): T[] {
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}

/** Writes the blobs of `items` the database lacks; returns how many it wrote and their bytes. */
export async function writeNewBlobs(tx: Db, items: readonly StoredContent[], opts: { askFirst?: boolean } = {}): Promise<{ rows: number; bytes: number }> {
  const written = await copyNew(tx, BLOB_ROWS, items, opts);
  return { rows: written.length, bytes: written.reduce((n, b) => n + b.size, 0) };
}

/** Writes the check readings of `items` the database lacks (by blob and reader); returns how many. */
export async function writeNewReadings(tx: Db, items: readonly ReadingRow[], opts: { askFirst?: boolean } = {}): Promise<number> {
  return (await copyNew(tx, READING_ROWS, items, opts)).length;
}
