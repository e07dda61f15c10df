// An import's new blobs: stored once by content hash, written by binary COPY (db/copy-binary.ts)
// instead of a JSON document: the file and log contents are most of an import's bytes, and
// escaping them into JSON, binding that as a parameter and parsing it again at the server cost
// more than storing them (docs/benchmarks.md, session 29).
import { sql } from "drizzle-orm";
import type { StoredContent } from "@/lib/ingest/content";
import { execRows, type Db } from "../client";
import { blobs } from "../schema";
import { CHUNK_ROWS, chunks, copyRows, insertJson } from "./bulk";
import { BLOBS } from "./ingest-rows";

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = "23505";

/**
 * Writes the blobs of `items` the database lacks (each distinct hash once per call); returns how
 * many it wrote and their bytes. The hashes already stored are asked first and the rest copied in
 * under a savepoint. A concurrent import can still commit one of them in between: the copy then
 * fails on the primary key, and that chunk goes in again as an INSERT … ON CONFLICT DO NOTHING.
 */
export async function writeNewBlobs(tx: Db, items: readonly StoredContent[], opts: { askFirst?: boolean } = {}): Promise<{ rows: number; bytes: number }> {
  const written = { rows: 0, bytes: 0 };
  for (const part of chunks([...items], CHUNK_ROWS, (b) => b.content.length + 100)) {
    // (`askFirst: false`, tests only: as if another import had committed them since.)
    const stored =
      opts.askFirst === false ? [] : await execRows<{ hash: string }>(tx, sql`SELECT hash FROM ${blobs} WHERE hash = ANY(${`{${part.map((b) => b.hash).join(",")}}`}::text[])`);
    const have = new Set(stored.map((r) => r.hash));
    const fresh = have.size === 0 ? part : part.filter((b) => !have.has(b.hash));
    if (fresh.length === 0) continue;
    await execRows(tx, sql`SAVEPOINT blobs_copy`);
    try {
      await copyRows(tx, blobs, [blobs.hash, blobs.size, blobs.encoding, blobs.content], fresh, (b) => [{ text: b.hash }, { int4: b.size }, { text: b.encoding }, { text: b.content }]);
      await execRows(tx, sql`RELEASE SAVEPOINT blobs_copy`);
      written.rows += fresh.length;
      for (const b of fresh) written.bytes += b.size;
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      await execRows(tx, sql`ROLLBACK TO SAVEPOINT blobs_copy`);
      const rows = fresh.map((b) => ({ hash: b.hash, size: b.size, encoding: b.encoding, content: b.content }));
      const inserted = await execRows<{ size: number }>(tx, insertJson(blobs, BLOBS, rows, { tail: sql`ON CONFLICT DO NOTHING RETURNING size` }));
      written.rows += inserted.length;
      for (const r of inserted) written.bytes += r.size;
    }
  }
  return written;
}
