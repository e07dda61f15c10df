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
// percentiles. One statement of aggregates; the server never sees individual tasks.

/** A slice narrows every query to the tasks it names; values are bound parameters. */
function sliceWhere(runId: number, slice: RoundSliceJson): SQL {
  const parts: SQL[] = [sql`t.run_id = ${runId}`, sql`t.round IS NOT NULL`];
  if (slice.category !== undefined) parts.push(sql`t.category = ${slice.category}`);
  if (slice.operator !== undefined) parts.push(sql`t.operator = ${slice.operator}`);
  if (slice.root !== undefined) parts.push(sql`t.root_id = ${slice.root}`);
  if (slice.review !== undefined) parts.push(sql`t.review_state = ${slice.review}`);
  return sql.join(parts, sql` AND `);
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Identifiers only come from ROUND_METRICS / PERCENTILES, never from a request. */
const acceptedColumns = ROUND_METRICS.flatMap((m) => [
  `count(t.${m})::int AS ${m}_n`,
  ...PERCENTILES.map(([key, p]) => `percentile_cont(${p}) WITHIN GROUP (ORDER BY t.${m}) AS ${m}_${key}`),
]).join(",\n        ");

const ACCEPTED_FIELDS = ["pass_at_k", "mean_reward", "solver_n", ...ROUND_METRICS.flatMap((m) => [`${m}_n`, ...PERCENTILES.map(([key]) => `${m}_${key}`)])];

/**
 * One statement, two passes over the slice's index entries (tasks_run_round_idx covers every
 * column read, trials_oracle_idx the oracle rewards):
 * - cells: the slice's tasks counted by round, status, rejection reason, operator and oracle
 *   outcome, a few thousand rows from which candidates, yield, validation, reasons and the
 *   operator mix are summed;
 * - accepted: the accepted tasks' solver means and metric percentiles, read in round order (no
 *   sort of the rows, only the per-round sorts of the percentiles themselves).
 */
export function roundDetailQuery(runId: number, slice: RoundSliceJson): SQL {
  const where = sliceWhere(runId, slice);
  const passed = sql`bool_and(coalesce(reward, 0) >= 1)`;
  // A seed family is a few hundred tasks: their oracle trials are looked up task by task. Any
  // other slice is a large part of the run, whose oracle trials are read in one pass.
  const withOracle =
    slice.root === undefined
      ? sql`tasks t LEFT JOIN (
            SELECT task_id, ${passed} AS passed FROM trials WHERE run_id = ${runId} AND "check" = 'oracle' GROUP BY task_id
          ) o ON o.task_id = t.id`
      : sql`tasks t LEFT JOIN LATERAL (
            SELECT ${passed} AS passed FROM trials
            WHERE run_id = ${runId} AND "check" = 'oracle' AND task_id = t.id HAVING count(*) > 0
          ) o ON true`;
  return sql`WITH cells AS (
        SELECT t.round, t.status, t.rejection_reason, t.operator, o.passed, count(*)::int AS n
        FROM ${withOracle}
        WHERE ${where}
        GROUP BY 1, 2, 3, 4, 5
      ),
      counts AS (
        SELECT round,
          sum(n)::int AS candidates,
          coalesce(sum(n) FILTER (WHERE status = 'accepted'), 0)::int AS accepted,
          coalesce(sum(n) FILTER (WHERE status = 'rejected'), 0)::int AS rejected,
          coalesce(sum(n) FILTER (WHERE passed IS NOT NULL), 0)::int AS validated,
          coalesce(sum(n) FILTER (WHERE passed), 0)::int AS validation_passed
        FROM cells GROUP BY round
      ),
      reasons AS (
        SELECT round, json_agg(json_build_object('reason', reason, 'count', n) ORDER BY n DESC, reason) AS list
        FROM (SELECT round, coalesce(rejection_reason, ${NO_REASON}) AS reason, sum(n)::int AS n FROM cells WHERE status = 'rejected' GROUP BY 1, 2) x
        GROUP BY round
      ),
      ops AS (
        SELECT round, json_agg(json_build_object('operator', operator, 'candidates', n, 'accepted', a) ORDER BY n DESC, operator) AS list
        FROM (
          SELECT round, operator, sum(n)::int AS n, coalesce(sum(n) FILTER (WHERE status = 'accepted'), 0)::int AS a FROM cells GROUP BY 1, 2
        ) x
        GROUP BY round
      ),
      accepted AS (
        SELECT t.round,
          avg(t.pass_at_k) AS pass_at_k,
          avg(t.mean_reward) AS mean_reward,
          count(t.pass_at_k)::int AS solver_n,
          ${sql.raw(acceptedColumns)}
        FROM tasks t WHERE ${where} AND t.status = 'accepted'
        GROUP BY t.round
      )
      SELECT c.round::int AS round, c.candidates, c.accepted, c.rejected, c.validated, c.validation_passed,
        ${sql.raw(ACCEPTED_FIELDS.map((f) => `a.${f}`).join(", "))}, reasons.list AS rejection_reasons, ops.list AS operators
      FROM counts c
        LEFT JOIN accepted a ON a.round = c.round
        LEFT JOIN reasons ON reasons.round = c.round
        LEFT JOIN ops ON ops.round = c.round
      ORDER BY c.round`;
}

/**
 * Settings for the statistics' one transaction, each measured at paper scale (docs/benchmarks.md):
 * - no JIT: the planner cannot estimate these aggregates well, their cost passes the JIT
 *   thresholds, and compiling them took 680 ms of a 1.3 s statement;
 * - no parallel workers: each worker built its own hash of all oracle trials, which made the
 *   query slower, not faster;
 * - no nested loops outside a seed family: without planner statistics a category slice was
 *   joined to the run's oracle trials row by row (20 s instead of 0.3 s);
 * - more work_mem, so that the percentiles sort in memory instead of in temporary files.
 */
function statementSettings(slice: RoundSliceJson): SQL {
  return sql`SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
    set_config('enable_nestloop', ${slice.root === undefined ? "off" : "on"}, true), set_config('work_mem', '64MB', true)`;
}

/** json columns arrive parsed from postgres.js and PGlite alike; a string is parsed here just in case. */
function jsonList<T>(v: unknown): T[] {
  if (v === null || v === undefined) return [];
  const parsed: unknown = typeof v === "string" ? JSON.parse(v) : v;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

export async function getRoundDetailByRunId(db: Db, runId: number, slice: RoundSliceJson): Promise<RoundDetailJson[]> {
  const aggregates = await db.transaction(async (tx) => {
    await tx.execute(statementSettings(slice));
    return execRows<Record<string, unknown>>(tx, roundDetailQuery(runId, slice));
  });
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

/** Seeds of a run with the size of their families, largest first, for the seed-family menu.
 * Families are counted from tasks_run_round_idx (root_id is one of its columns) before the
 * seeds are looked up, rather than by joining every task to its seed. */
export async function listSeedFamilies(db: Db, runName: string, limit = 500): Promise<SeedFamilyJson[]> {
  const rows = await execRows<{ id: number; task_id: string; tasks: number }>(
    db,
    sql`SELECT s.id, s.ext_id AS task_id, f.n AS tasks
      FROM (
        SELECT t.root_id, count(*)::int AS n
        FROM runs r JOIN tasks t ON t.run_id = r.id
        WHERE r.name = ${runName} AND t.root_id IS NOT NULL
        GROUP BY t.root_id
      ) f
      JOIN tasks s ON s.id = f.root_id AND s.parent_id IS NULL AND s.round = 0
      ORDER BY f.n DESC, s.ext_id LIMIT ${limit}`,
  );
  return rows.map((r) => ({ id: Number(r.id), task_id: r.task_id, tasks: Number(r.tasks) }));
}
