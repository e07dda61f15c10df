// How an import's one large transaction is set up (what the database can do, settings local to
// it) and what runs after it commits.
import { getTableName, sql } from "drizzle-orm";
import { SEARCH_VECTOR_PROBE, searchVector } from "@/lib/ingest/search-vector";
import { execRows, isEmbedded, type Db } from "../client";
import { blobs, checkReadings, evals, logChunks, taskFiles, taskSearch, tasks, trialLogs, trials, trialTests } from "../schema";

/** Whether the database's to_tsvector('simple', …) gives what searchVector builds, on a text that
 * exercises its rules (a different parser or locale would show here). */
export async function agreesOnVectors(tx: Db): Promise<boolean> {
  const vector = searchVector(SEARCH_VECTOR_PROBE);
  if (vector === null) return false;
  const [row] = await execRows<{ same: boolean }>(tx, sql`SELECT to_tsvector('simple', ${SEARCH_VECTOR_PROBE}) = ${vector}::tsvector AS same`);
  return row?.same === true;
}

/** What `tuneTransaction` set up for the import's end (`RunWriter.finish`, db/queries/ingest.ts). */
export interface ImportEndPlan {
  /** GIN indexes whose pending lists are merged before commit */
  merge: string[];
  /** statements that put back, in order, what was dropped for the import: the GIN indexes, then
   * the foreign keys (each checked once over its whole table as it is added) */
  rebuild: string[];
}

/** The tables an import fills row by row (db/queries/ingest.ts), whose foreign keys are the ones
 * dropped and added again around a large import into PGlite. */
const FILLED_TABLES = [tasks, taskFiles, taskSearch, trials, trialTests, trialLogs, evals, logChunks].map((t) => getTableName(t));

/**
 * Settings for this one large transaction (SET LOCAL: they end with it, the schema is untouched):
 * - lz4 compresses the stored file contents (TOAST) several times faster than the default pglz,
 *   where the server has it; reading is the same.
 * - The full-text GIN indexes collect new entries in a pending list and merge it into the index
 *   whenever it passes gin_pending_list_limit (4 MB): a larger list merges less often, and
 *   `RunWriter.finish` merges the rest before commit so searches do not scan a long list.
 *   Only on indexes this role owns (merging needs ownership).
 *
 * Into embedded PGlite, when the import may add more tasks than task_search holds (`adding`: its
 * candidates that are not tasks of the run already), it drops instead, inside the transaction:
 * - those GIN indexes, built once at the end from all the rows: row by row, every entry went
 *   through the pending list and then into the index, both logged;
 * - the foreign keys of the tables it fills, added again at the end, when PostgreSQL checks each
 *   one with a single join over its table. Row by row, every row's reference was a query and a
 *   row lock of its own (millions at paper scale: the trials' tests alone are 2.6 million), a
 *   fifth of PGlite's statement time on the 9k-candidate run (docs/benchmarks.md, session 43).
 *   The import deletes no row that another references, and a reference it broke would fail the
 *   ADD and roll the import back.
 * All on the thread the readers wait for. A failed import rolls the DROPs back, and nothing else
 * can query PGlite while the import's transaction runs. Not on PostgreSQL: there the locks the
 * DROPs take would stall every query of those tables, for every run, until the commit.
 */
export async function tuneTransaction(tx: Db, opts: { adding: number }): Promise<ImportEndPlan> {
  const [lz4] = await execRows<{ ok: number }>(
    tx,
    sql`SELECT 1 AS ok FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`,
  );
  if (lz4) await tx.execute(sql`SET LOCAL default_toast_compression = 'lz4'`);
  let bulk = false;
  if (isEmbedded(tx)) {
    const [held] = await execRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${taskSearch}`);
    bulk = (held?.n ?? 0) < opts.adding;
  }
  const plan: ImportEndPlan = { merge: [], rebuild: [] };
  await planSearchIndexes(tx, bulk, plan);
  if (bulk) await dropForeignKeys(tx, plan);
  return plan;
}

async function planSearchIndexes(tx: Db, bulk: boolean, plan: ImportEndPlan): Promise<void> {
  const gin = await execRows<{ oid: string; mine: boolean; name: string; definition: string }>(
    tx,
    sql`SELECT i.indexrelid::text AS oid, pg_has_role(c.relowner, 'USAGE') AS mine, c.relname AS name,
          pg_get_indexdef(i.indexrelid) AS definition
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid = ${getTableName(taskSearch)}::regclass AND am.amname = 'gin'
        ORDER BY c.relname`,
  );
  if (gin.length === 0 || gin.some((g) => !g.mine)) return;
  if (bulk) {
    for (const g of gin) await tx.execute(sql`DROP INDEX ${sql.identifier(g.name)}`);
    plan.rebuild.push(...gin.map((g) => g.definition));
    return;
  }
  await tx.execute(sql`SET LOCAL gin_pending_list_limit = '64MB'`);
  plan.merge.push(...gin.map((g) => g.oid));
}

/** Drops the foreign keys of FILLED_TABLES (those of tables this role owns) and plans them back. */
async function dropForeignKeys(tx: Db, plan: ImportEndPlan): Promise<void> {
  const keys = await execRows<{ drop: string; add: string }>(
    tx,
    sql`SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname) AS drop,
               format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid)) AS add
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE c.contype = 'f' AND c.conrelid = ANY(${`{${FILLED_TABLES.join(",")}}`}::regclass[]) AND pg_has_role(t.relowner, 'USAGE')
        ORDER BY t.relname, c.conname`,
  );
  for (const k of keys) await tx.execute(sql.raw(k.drop));
  plan.rebuild.push(...keys.map((k) => k.add));
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
