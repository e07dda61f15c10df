// Round statistics, computed by the database (percentile aggregates), never in the server's memory.
import { eq, sql } from "drizzle-orm";
import type { RoundStatJson, RunRoundsJson } from "@/lib/api/types";
import { execRows, type Db } from "../client";
import { runs } from "../schema";

/** Raw row: drivers may return numerics as strings, so every field is converted below. */
type RoundRow = Record<keyof RoundStatJson, unknown>;

const median = (col: string) =>
  sql.raw(`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${col}) FILTER (WHERE status = 'accepted')`);

export async function getRoundStatsByRunId(db: Db, runId: number): Promise<RoundStatJson[]> {
  const rows = await execRows<RoundRow>(
    db,
    sql`SELECT round::int AS round,
        count(*)::int AS candidates,
        (count(*) FILTER (WHERE status = 'accepted'))::int AS accepted,
        (count(*) FILTER (WHERE status = 'rejected'))::int AS rejected,
        ${median("solution_lines")} AS median_solution_lines,
        ${median("commands")} AS median_commands,
        ${median("distinct_tools")} AS median_distinct_tools,
        ${median("instruction_words")} AS median_instruction_words,
        ${median("verifier_tests")} AS median_verifier_tests,
        avg(pass_at_k) FILTER (WHERE status = 'accepted') AS pass_at_k,
        avg(mean_reward) FILTER (WHERE status = 'accepted') AS mean_reward
      FROM tasks WHERE run_id = ${runId} AND round IS NOT NULL
      GROUP BY round ORDER BY round`,
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    round: Number(r.round),
    candidates: Number(r.candidates),
    accepted: Number(r.accepted),
    rejected: Number(r.rejected),
    median_solution_lines: num(r.median_solution_lines),
    median_commands: num(r.median_commands),
    median_distinct_tools: num(r.median_distinct_tools),
    median_instruction_words: num(r.median_instruction_words),
    median_verifier_tests: num(r.median_verifier_tests),
    pass_at_k: num(r.pass_at_k),
    mean_reward: num(r.mean_reward),
  }));
}

export function solverOf(meta: Record<string, unknown>): { model: string | null; k: number | null } {
  const solver = meta.solver;
  if (solver === null || typeof solver !== "object") return { model: null, k: null };
  const s = solver as Record<string, unknown>;
  return { model: typeof s.model === "string" ? s.model : null, k: typeof s.k === "number" ? s.k : null };
}

export async function getRoundStats(db: Db, runName: string): Promise<RunRoundsJson | null> {
  const [run] = await db.select({ id: runs.id, name: runs.name, meta: runs.meta }).from(runs).where(eq(runs.name, runName));
  if (!run) return null;
  return { run: run.name, solver: solverOf(run.meta), rounds: await getRoundStatsByRunId(db, run.id) };
}
