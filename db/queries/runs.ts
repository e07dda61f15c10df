// Runs with their counts, and the per-run overview.
import { desc, eq, sql, type SQL } from "drizzle-orm";
import type { ImportJson, RunJson, RunOverviewJson } from "@/lib/api/types";
import { execRows, type Db } from "../client";
import { imports, runs, tasks, trials, type ReviewState, type RunCounts } from "../schema";
import { getRoundStatsByRunId, solverOf } from "./stats";

interface RunRow {
  id: number;
  name: string;
  format: string;
  created_at: string | null;
  ingested_at: string;
  counts: RunCounts | null;
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(String(v)).toISOString());

const NO_COUNTS: RunCounts = { seeds: 0, rounds: 0, accepted: 0, rejected: 0, trials: 0 };

function toRunJson(r: RunRow, counts: RunCounts): RunJson {
  return {
    id: Number(r.id),
    name: r.name,
    format: r.format,
    created_at: iso(r.created_at),
    ingested_at: iso(r.ingested_at) ?? "",
    seeds: Number(counts.seeds),
    rounds: Number(counts.rounds),
    accepted: Number(counts.accepted),
    rejected: Number(counts.rejected),
    trials: Number(counts.trials),
  };
}

/** The counts of the run whose id is `runId` (an expression), from its rows. */
function countsOf(runId: SQL): SQL {
  return sql`(SELECT jsonb_build_object(
      'seeds', count(*) FILTER (WHERE t.parent_ext_id IS NULL), 'rounds', coalesce(max(t.round), 0),
      'accepted', count(*) FILTER (WHERE t.status = 'accepted'), 'rejected', count(*) FILTER (WHERE t.status = 'rejected'),
      'trials', (SELECT count(*) FROM ${trials} tr WHERE tr.run_id = ${runId}))
    FROM ${tasks} t WHERE t.run_id = ${runId})`;
}

/**
 * Stores run `runId`'s counts: called by every import before it commits (tasks and trials change
 * nowhere else), so that listing the runs reads one row per run instead of counting their rows.
 */
export async function storeRunCounts(tx: Db, runId: number): Promise<void> {
  await tx.execute(sql`UPDATE ${runs} SET counts = ${countsOf(sql`${runs.id}`)} WHERE ${runs.id} = ${runId}`);
}

async function runCounts(db: Db, where: SQL): Promise<RunJson[]> {
  const rows = await execRows<RunRow>(
    db,
    sql`SELECT r.id, r.name, r.format, r.created_at, r.ingested_at, r.counts FROM ${runs} r WHERE ${where} ORDER BY r.ingested_at DESC, r.id DESC`,
  );
  const out: RunJson[] = [];
  for (const r of rows) {
    // Stored by every import since migration 0017 (which counted the runs before it); counted
    // here otherwise, one run at a time, so the listing's plan stays small.
    let counts = r.counts;
    if (!counts) {
      const [live] = await execRows<{ counts: RunCounts | null }>(db, sql`SELECT ${countsOf(sql`${r.id}::int`)} AS counts`);
      counts = live?.counts ?? NO_COUNTS;
    }
    out.push(toRunJson(r, counts));
  }
  return out;
}

export async function listRuns(db: Db): Promise<RunJson[]> {
  return runCounts(db, sql`true`);
}

export async function getRunByName(db: Db, name: string): Promise<RunJson | null> {
  return (await runCounts(db, sql`r.name = ${name}`))[0] ?? null;
}

function toImportJson(row: typeof imports.$inferSelect): ImportJson {
  return {
    id: row.id,
    run: row.runName,
    format: row.format,
    source_path: row.sourcePath,
    status: row.status,
    summary: row.summary,
    error: row.error,
    started_at: iso(row.startedAt) ?? "",
    finished_at: iso(row.finishedAt),
  };
}

export async function getLastImport(db: Db, runName?: string): Promise<ImportJson | null> {
  const q = db.select().from(imports);
  const [row] = await (runName ? q.where(eq(imports.runName, runName)) : q).orderBy(desc(imports.startedAt), desc(imports.id)).limit(1);
  return row ? toImportJson(row) : null;
}

export async function getRunOverview(db: Db, runName: string): Promise<RunOverviewJson | null> {
  const run = await getRunByName(db, runName);
  if (!run) return null;
  const [meta] = await db.select({ meta: runs.meta }).from(runs).where(eq(runs.id, run.id));
  const reasons = await execRows<{ reason: string; count: number }>(
    db,
    sql`SELECT coalesce(rejection_reason, 'unspecified') AS reason, count(*)::int AS count
      FROM tasks WHERE run_id = ${run.id} AND status = 'rejected' GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
  const reviews = await execRows<{ review: ReviewState; count: number }>(
    db,
    sql`SELECT review_state AS review, count(*)::int AS count FROM tasks WHERE run_id = ${run.id} GROUP BY 1 ORDER BY 2 DESC`,
  );
  return {
    run,
    rounds: await getRoundStatsByRunId(db, run.id),
    solver: solverOf(meta?.meta ?? {}),
    rejection_reasons: reasons.map((r) => ({ reason: r.reason, count: Number(r.count) })),
    review_states: reviews.map((r) => ({ review: r.review, count: Number(r.count) })),
    last_import: await getLastImport(db, runName),
    lineage: await lineageSource(db, run.id),
  };
}

/** Whether the run's parent links were declared, inferred, or are missing: two short probes. */
async function lineageSource(db: Db, runId: number): Promise<RunOverviewJson["lineage"]> {
  const [row] = await execRows<{ declared: boolean; inferred: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM tasks WHERE run_id = ${runId} AND parent_ext_id IS NOT NULL AND lineage_inferred IS NULL) AS declared,
               EXISTS (SELECT 1 FROM tasks WHERE run_id = ${runId} AND lineage_inferred IS NOT NULL) AS inferred`,
  );
  return row?.declared ? "declared" : row?.inferred ? "inferred" : "none";
}

export async function getImport(db: Db, id: number): Promise<ImportJson | null> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id));
  return row ? toImportJson(row) : null;
}
