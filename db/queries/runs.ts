// Runs with their counts, and the per-run overview.
import { desc, eq, sql } from "drizzle-orm";
import type { ImportJson, RunJson, RunOverviewJson } from "@/lib/api/types";
import { execRows, type Db } from "../client";
import { imports, runs, type ReviewState } from "../schema";
import { getRoundStatsByRunId, solverOf } from "./stats";

interface RunCountsRow {
  id: number;
  name: string;
  format: string;
  created_at: string | null;
  ingested_at: string;
  seeds: number;
  rounds: number;
  accepted: number;
  rejected: number;
  trials: number;
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(String(v)).toISOString());

function toRunJson(r: RunCountsRow): RunJson {
  return {
    id: Number(r.id),
    name: r.name,
    format: r.format,
    created_at: iso(r.created_at),
    ingested_at: iso(r.ingested_at) ?? "",
    seeds: Number(r.seeds),
    rounds: Number(r.rounds),
    accepted: Number(r.accepted),
    rejected: Number(r.rejected),
    trials: Number(r.trials),
  };
}

async function runCounts(db: Db, where: ReturnType<typeof sql>): Promise<RunJson[]> {
  const rows = await execRows<RunCountsRow>(
    db,
    sql`SELECT r.id, r.name, r.format, r.created_at, r.ingested_at,
        coalesce(t.seeds, 0)::int AS seeds, coalesce(t.rounds, 0)::int AS rounds,
        coalesce(t.accepted, 0)::int AS accepted, coalesce(t.rejected, 0)::int AS rejected,
        coalesce(tr.trials, 0)::int AS trials
      FROM runs r
      LEFT JOIN LATERAL (
        SELECT count(*) FILTER (WHERE parent_ext_id IS NULL) AS seeds, max(round) AS rounds,
          count(*) FILTER (WHERE status = 'accepted') AS accepted, count(*) FILTER (WHERE status = 'rejected') AS rejected
        FROM tasks WHERE run_id = r.id) t ON true
      LEFT JOIN LATERAL (SELECT count(*) AS trials FROM trials WHERE run_id = r.id) tr ON true
      WHERE ${where}
      ORDER BY r.ingested_at DESC, r.id DESC`,
  );
  return rows.map(toRunJson);
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
  };
}

export async function getImport(db: Db, id: number): Promise<ImportJson | null> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id));
  return row ? toImportJson(row) : null;
}
