// Round statistics, computed by the database (percentile aggregates), never in the server's memory.
import { eq, sql, type SQL } from "drizzle-orm";
import type {
  PercentilesJson,
  RoundDetailJson,
  RoundMetric,
  RoundSliceJson,
  RoundStatJson,
  RunRoundDetailJson,
  RunRoundsJson,
  SeedFamilyJson,
} from "@/lib/api/types";
import { NO_REASON } from "@/lib/domain";
import { PERCENTILES, ROUND_METRICS } from "@/lib/rounds/metrics";
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

// ---------------------------------------------------------------------------------------------
// The Rounds page: the same per-round counts, for a slice of a run, with rates, mixes and
// percentiles. Four aggregate queries; the server never sees individual tasks.

/** A slice narrows every query to the tasks it names; values are bound parameters. */
function sliceWhere(runId: number, slice: RoundSliceJson): SQL {
  const parts: SQL[] = [sql`t.run_id = ${runId}`, sql`t.round IS NOT NULL`];
  if (slice.category !== undefined) parts.push(sql`t.category = ${slice.category}`);
  if (slice.operator !== undefined) parts.push(sql`t.operator = ${slice.operator}`);
  if (slice.root !== undefined) parts.push(sql`t.root_id = ${slice.root}`);
  if (slice.review !== undefined) parts.push(sql`t.review_state = ${slice.review}`);
  return sql.join(parts, sql` AND `);
}

/** Identifiers only come from ROUND_METRICS / PERCENTILES, never from a request. */
const percentileColumns = ROUND_METRICS.flatMap((m) => [
  `(count(t.${m}) FILTER (WHERE t.status = 'accepted'))::int AS ${m}_n`,
  ...PERCENTILES.map(
    ([key, p]) => `percentile_cont(${p}) WITHIN GROUP (ORDER BY t.${m}) FILTER (WHERE t.status = 'accepted') AS ${m}_${key}`,
  ),
]).join(",\n        ");

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * One statement, one scan of the run's tasks: the narrow columns are materialized once and the
 * per-round aggregates, rejection reasons and operator mix are all computed from them.
 * Validation joins only the oracle trials of those tasks.
 */
export function roundDetailQuery(runId: number, slice: RoundSliceJson): SQL {
  const where = sliceWhere(runId, slice);
  return sql`WITH s AS MATERIALIZED (
        SELECT t.id, t.round, t.status, t.rejection_reason, t.operator, t.pass_at_k, t.mean_reward,
          ${sql.raw(ROUND_METRICS.map((m) => `t.${m}`).join(", "))}
        FROM tasks t WHERE ${where}
      ),
      o AS (
        SELECT task_id, bool_and(coalesce(reward, 0) >= 1) AS passed
        FROM trials WHERE run_id = ${runId} AND "check" = 'oracle' AND task_id IN (SELECT id FROM s)
        GROUP BY task_id
      ),
      agg AS (
        SELECT t.round::int AS round,
          count(*)::int AS candidates,
          (count(*) FILTER (WHERE t.status = 'accepted'))::int AS accepted,
          (count(*) FILTER (WHERE t.status = 'rejected'))::int AS rejected,
          avg(t.pass_at_k) FILTER (WHERE t.status = 'accepted') AS pass_at_k,
          avg(t.mean_reward) FILTER (WHERE t.status = 'accepted') AS mean_reward,
          (count(t.pass_at_k) FILTER (WHERE t.status = 'accepted'))::int AS solver_n,
          (count(*) FILTER (WHERE o.task_id IS NOT NULL))::int AS validated,
          (count(*) FILTER (WHERE o.passed))::int AS validation_passed,
          ${sql.raw(percentileColumns)}
        FROM s t LEFT JOIN o ON o.task_id = t.id
        GROUP BY t.round
      ),
      reasons AS (
        SELECT round, json_agg(json_build_object('reason', reason, 'count', n) ORDER BY n DESC, reason) AS list
        FROM (SELECT round, coalesce(rejection_reason, ${NO_REASON}) AS reason, count(*)::int AS n FROM s WHERE status = 'rejected' GROUP BY 1, 2) x
        GROUP BY round
      ),
      ops AS (
        SELECT round, json_agg(json_build_object('operator', operator, 'candidates', n, 'accepted', a) ORDER BY n DESC, operator) AS list
        FROM (
          SELECT round, operator, count(*)::int AS n, (count(*) FILTER (WHERE status = 'accepted'))::int AS a FROM s GROUP BY 1, 2
        ) x
        GROUP BY round
      )
      SELECT agg.*, reasons.list AS rejection_reasons, ops.list AS operators
      FROM agg LEFT JOIN reasons ON reasons.round = agg.round LEFT JOIN ops ON ops.round = agg.round
      ORDER BY agg.round`;
}

/** json columns arrive parsed from postgres.js and PGlite alike; a string is parsed here just in case. */
function jsonList<T>(v: unknown): T[] {
  if (v === null || v === undefined) return [];
  const parsed: unknown = typeof v === "string" ? JSON.parse(v) : v;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

export async function getRoundDetailByRunId(db: Db, runId: number, slice: RoundSliceJson): Promise<RoundDetailJson[]> {
  const aggregates = await execRows<Record<string, unknown>>(db, roundDetailQuery(runId, slice));
  return aggregates.map((r) => {
    const round = Number(r.round);
    const candidates = Number(r.candidates);
    const accepted = Number(r.accepted);
    const validated = Number(r.validated);
    const validationPassed = Number(r.validation_passed);
    const metrics = Object.fromEntries(
      ROUND_METRICS.map((m) => [
        m,
        { n: Number(r[`${m}_n`]), ...Object.fromEntries(PERCENTILES.map(([key]) => [key, num(r[`${m}_${key}`])])) } as PercentilesJson,
      ]),
    ) as Record<RoundMetric, PercentilesJson>;
    return {
      round,
      candidates,
      accepted,
      rejected: Number(r.rejected),
      median_solution_lines: metrics.solution_lines.p50,
      median_commands: metrics.commands.p50,
      median_distinct_tools: metrics.distinct_tools.p50,
      median_instruction_words: metrics.instruction_words.p50,
      median_verifier_tests: metrics.verifier_tests.p50,
      pass_at_k: num(r.pass_at_k),
      mean_reward: num(r.mean_reward),
      yield: candidates > 0 ? accepted / candidates : null,
      validated,
      validation_passed: validationPassed,
      validation_rate: validated > 0 ? validationPassed / validated : null,
      solver_n: Number(r.solver_n),
      rejection_reasons: jsonList<{ reason: string; count: number }>(r.rejection_reasons).map((x) => ({
        reason: x.reason,
        count: Number(x.count),
      })),
      operators: jsonList<{ operator: string | null; candidates: number; accepted: number }>(r.operators).map((x) => ({
        operator: x.operator,
        candidates: Number(x.candidates),
        accepted: Number(x.accepted),
      })),
      metrics,
    };
  });
}

/** A cheap fingerprint of everything the round statistics depend on: imports and reviews. */
export async function getRoundDataVersion(db: Db, runName: string): Promise<{ runId: number; meta: Record<string, unknown>; version: string } | null> {
  const [row] = await execRows<{ id: number; meta: Record<string, unknown>; ingested_at: string; import_id: number | null; review_id: number | null }>(
    db,
    sql`SELECT r.id, r.meta, r.ingested_at::text AS ingested_at,
        (SELECT max(i.id) FROM imports i WHERE i.run_id = r.id AND i.status = 'done') AS import_id,
        (SELECT max(v.id) FROM reviews v) AS review_id
      FROM runs r WHERE r.name = ${runName}`,
  );
  if (!row) return null;
  return { runId: Number(row.id), meta: row.meta, version: `${row.id}:${row.ingested_at}:${row.import_id ?? 0}:${row.review_id ?? 0}` };
}

export async function getRoundDetail(db: Db, runName: string, slice: RoundSliceJson = {}): Promise<RunRoundDetailJson | null> {
  const v = await getRoundDataVersion(db, runName);
  if (!v) return null;
  return { run: runName, solver: solverOf(v.meta), slice, data_version: v.version, rounds: await getRoundDetailByRunId(db, v.runId, slice) };
}

/** Seeds of a run with the size of their families, largest first, for the seed-family menu. */
export async function listSeedFamilies(db: Db, runName: string, limit = 500): Promise<SeedFamilyJson[]> {
  const rows = await execRows<{ id: number; task_id: string; tasks: number }>(
    db,
    sql`SELECT s.id, s.ext_id AS task_id, count(t.id)::int AS tasks
      FROM runs r JOIN tasks s ON s.run_id = r.id AND s.parent_id IS NULL AND s.round = 0
      LEFT JOIN tasks t ON t.root_id = s.id
      WHERE r.name = ${runName}
      GROUP BY s.id, s.ext_id ORDER BY count(t.id) DESC, s.ext_id LIMIT ${limit}`,
  );
  return rows.map((r) => ({ id: Number(r.id), task_id: r.task_id, tasks: Number(r.tasks) }));
}
