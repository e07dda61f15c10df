// How an import's one large transaction is set up (what the database can do, settings local to
// it) and what runs after it commits.
import { getTableName, sql } from "drizzle-orm";
import { SEARCH_VECTOR_PROBE, searchVector } from "@/lib/ingest/search-vector";
import { execRows, type Db } from "../client";
import { blobs, checkReadings, evals, taskFiles, taskSearch, tasks, trialLogs, trials, trialTests } from "../schema";

/** Whether the database's to_tsvector('simple', …) gives what searchVector builds, on a text that
 * exercises its rules (a different parser or locale would show here). */
export async function agreesOnVectors(tx: Db): Promise<boolean> {
  const vector = searchVector(SEARCH_VECTOR_PROBE);
  if (vector === null) return false;
  const [row] = await execRows<{ same: boolean }>(tx, sql`SELECT to_tsvector('simple', ${SEARCH_VECTOR_PROBE}) = ${vector}::tsvector AS same`);
  return row?.same === true;
}

/**
 * Settings for this one large transaction (SET LOCAL: they end with it, the schema is untouched):
 * - lz4 compresses the stored file contents (TOAST) several times faster than the default pglz,
 *   where the server has it; reading is the same.
 * - The full-text GIN indexes collect new entries in a pending list and merge it into the index
 *   whenever it passes gin_pending_list_limit (4 MB): a larger list merges less often, and
 *   `RunWriter.finish` (db/queries/ingest.ts) merges the rest before commit so searches do not scan a long list.
 *   Only on indexes this role owns (merging needs ownership).
 * Returns the GIN indexes to merge at the end.
 */
export async function tuneTransaction(tx: Db): Promise<string[]> {
  const [lz4] = await execRows<{ ok: number }>(
    tx,
    sql`SELECT 1 AS ok FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`,
  );
  if (lz4) await tx.execute(sql`SET LOCAL default_toast_compression = 'lz4'`);
  const gin = await execRows<{ oid: string; mine: boolean }>(
    tx,
    sql`SELECT i.indexrelid::text AS oid, pg_has_role(c.relowner, 'USAGE') AS mine
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid = ${getTableName(taskSearch)}::regclass AND am.amname = 'gin'`,
  );
  if (gin.length === 0 || gin.some((g) => !g.mine)) return [];
  await tx.execute(sql`SET LOCAL gin_pending_list_limit = '64MB'`);
  return gin.map((g) => g.oid);
}

/** Fresh statistics for the other tables an import fills (tasks, task_search and trials are
 * analysed inside its transaction): without them (autovacuum off or late) the planner takes a
 * task's 7 files for 3,000 and sends a diff's file query through a parallel plan that costs 30 ms
 * instead of 2 (docs/benchmarks.md). Quick; the checks after an import wait for it, not for the
 * VACUUM, which runs beside them. */
export async function analyzeAfterImport(db: Db): Promise<void> {
  await db.execute(sql`ANALYZE ${taskFiles}, ${blobs}, ${trialTests}, ${trialLogs}, ${evals}, ${checkReadings}`);
}

/**
 * To run after an import's transaction has committed (VACUUM cannot run inside one): marks the
 * new rows all-visible, so that index-only scans (the task table's counts, the round statistics)
 * need not visit the table. Autovacuum does the same eventually, where it is on; at paper scale
 * it takes seconds and the round statistics drop from ~350 to ~110 ms (docs/benchmarks.md).
 */
export async function vacuumAfterImport(db: Db): Promise<void> {
  await db.execute(sql`VACUUM (ANALYZE) ${tasks}, ${taskSearch}, ${trials}`);
}
