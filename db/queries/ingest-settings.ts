// How an import's one large transaction is set up (what the database can do, settings local to
// it) and what runs after it commits.
import { getTableName, sql } from "drizzle-orm";
import { SEARCH_VECTOR_PROBE, searchVector } from "@/lib/ingest/search-vector";
import { execRows, isEmbedded, type Db } from "../client";
import { blobs, checkReadings, evals, taskFiles, taskSearch, tasks, trialLogs, trials, trialTests } from "../schema";

/** Whether the database's to_tsvector('simple', …) gives what searchVector builds, on a text that
 * exercises its rules (a different parser or locale would show here). */
export async function agreesOnVectors(tx: Db): Promise<boolean> {
  const vector = searchVector(SEARCH_VECTOR_PROBE);
  if (vector === null) return false;
  const [row] = await execRows<{ same: boolean }>(tx, sql`SELECT to_tsvector('simple', ${SEARCH_VECTOR_PROBE}) = ${vector}::tsvector AS same`);
  return row?.same === true;
}

/** What `tuneTransaction` set up for the import's end (`RunWriter.finish`, db/queries/ingest.ts). */
export interface SearchIndexPlan {
  /** GIN indexes whose pending lists are merged before commit */
  merge: string[];
  /** statements that build again the GIN indexes dropped for the import */
  rebuild: string[];
}

/**
 * Settings for this one large transaction (SET LOCAL: they end with it, the schema is untouched):
 * - lz4 compresses the stored file contents (TOAST) several times faster than the default pglz,
 *   where the server has it; reading is the same.
 * - The full-text GIN indexes collect new entries in a pending list and merge it into the index
 *   whenever it passes gin_pending_list_limit (4 MB): a larger list merges less often, and
 *   `RunWriter.finish` merges the rest before commit so searches do not scan a long list.
 *   Only on indexes this role owns (merging needs ownership).
 * - Into embedded PGlite, when the import may add more tasks than task_search holds (`adding`: its
 *   candidates that are not tasks of the run already), those indexes are dropped instead and built
 *   once at the end from all the rows: row by row, every entry went through the pending list and
 *   then into the index, both logged, on the thread the readers wait for. The DROP is part of the
 *   transaction (a failed import keeps the indexes), and nothing else can query PGlite while the
 *   import's transaction runs. Not on PostgreSQL: there the DROP's lock would stall every search
 *   of the other runs until the commit.
 */
export async function tuneTransaction(tx: Db, opts: { adding: number }): Promise<SearchIndexPlan> {
  const [lz4] = await execRows<{ ok: number }>(
    tx,
    sql`SELECT 1 AS ok FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`,
  );
  if (lz4) await tx.execute(sql`SET LOCAL default_toast_compression = 'lz4'`);
  const gin = await execRows<{ oid: string; mine: boolean; name: string; definition: string }>(
    tx,
    sql`SELECT i.indexrelid::text AS oid, pg_has_role(c.relowner, 'USAGE') AS mine, c.relname AS name,
          pg_get_indexdef(i.indexrelid) AS definition
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid = ${getTableName(taskSearch)}::regclass AND am.amname = 'gin'
        ORDER BY c.relname`,
  );
  if (gin.length === 0 || gin.some((g) => !g.mine)) return { merge: [], rebuild: [] };
  if (isEmbedded(tx)) {
    const [held] = await execRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${taskSearch}`);
    if ((held?.n ?? 0) < opts.adding) {
      for (const g of gin) await tx.execute(sql`DROP INDEX ${sql.identifier(g.name)}`);
      return { merge: [], rebuild: gin.map((g) => g.definition) };
    }
  }
  await tx.execute(sql`SET LOCAL gin_pending_list_limit = '64MB'`);
  return { merge: gin.map((g) => g.oid), rebuild: [] };
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
