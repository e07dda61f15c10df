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
import { ensureRoundRollups, rollupCovers, rollupSources } from "./rollups";

/** The per-round counts and medians of a whole run (CLI `stats`, the Overview, the API): the
 * Rounds page's statistics of the whole run, by the same code (rollups, settings, no JIT). */
export async function getRoundStatsByRunId(db: Db, runId: number): Promise<RoundStatJson[]> {
  const rounds = await getRoundDetailByRunId(db, runId, {});
  return rounds.map((r) => ({
    round: r.round,
    candidates: r.candidates,
    accepted: r.accepted,
    rejected: r.rejected,
    median_solution_lines: r.median_solution_lines,
    median_commands: r.median_commands,
    median_distinct_tools: r.median_distinct_tools,
    median_instruction_words: r.median_instruction_words,
    median_verifier_tests: r.median_verifier_tests,
    pass_at_k: r.pass_at_k,
    mean_reward: r.mean_reward,
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
 * The statement assembling the page's numbers from two sources: `cells` (round, status,
 * rejection_reason, operator, passed, n) — from which candidates, yield, validation, reasons and
 * the operator mix are summed — and `accepted` (per round: pass_at_k, mean_reward, solver_n and
 * per metric n and percentiles). `ctes` are further CTEs the sources read (ending with a comma).
 */
function roundDetailFrom(sources: { ctes?: SQL; cells: SQL; accepted: SQL }): SQL {
  return sql`WITH ${sources.ctes ?? sql``} cells AS (
        ${sources.cells}
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
        ${sources.accepted}
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
 * The statistics computed from the tasks: one statement, two passes over the slice's index
 * entries (tasks_run_round_idx covers every column read, trials_oracle_idx the oracle rewards):
 * - cells: the slice's tasks counted by round, status, rejection reason, operator and oracle
 *   outcome;
 * - accepted: the accepted tasks' solver means and metric percentiles, read in round order (no
 *   sort of the rows, only the per-round sorts of the percentiles themselves).
 * Used for seed families (a few hundred tasks) and wherever the rollups are missing.
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
  return roundDetailFrom({
    cells: sql`SELECT t.round, t.status, t.rejection_reason, t.operator, o.passed, count(*)::int AS n
        FROM ${withOracle}
        WHERE ${where}
        GROUP BY 1, 2, 3, 4, 5`,
    accepted: sql`SELECT t.round,
          avg(t.pass_at_k) AS pass_at_k,
          avg(t.mean_reward) AS mean_reward,
          count(t.pass_at_k)::int AS solver_n,
          ${sql.raw(acceptedColumns)}
        FROM tasks t WHERE ${where} AND t.status = 'accepted'
        GROUP BY t.round`,
  });
}

/** The same statistics read from the run's rollups (db/queries/rollups.ts); no seed family. */
export function roundDetailRollupQuery(runId: number, slice: RoundSliceJson): SQL {
  return roundDetailFrom(rollupSources(runId, slice));
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

/** Where the statistics come from: the rollups when they cover the slice (built first if the run
 * has none and the connection may write), else the tasks; tests name one to compare the two. */
export type RoundSource = "auto" | "tasks" | "rollups";

export async function getRoundDetailByRunId(db: Db, runId: number, slice: RoundSliceJson, source: RoundSource = "auto"): Promise<RoundDetailJson[]> {
  let fromRollups = false;
  if (source === "rollups") {
    if (!rollupCovers(slice)) throw new Error("the rollups do not cover a seed-family slice");
    if (!(await ensureRoundRollups(db, runId))) throw new Error(`run ${runId} has no round rollups`);
    fromRollups = true;
  } else if (source === "auto") {
    fromRollups = rollupCovers(slice) && (await ensureRoundRollups(db, runId));
  }
  const aggregates = await db.transaction(async (tx) => {
    await tx.execute(statementSettings(slice));
    return execRows<Record<string, unknown>>(tx, fromRollups ? roundDetailRollupQuery(runId, slice) : roundDetailQuery(runId, slice));
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

/** A cheap fingerprint of everything the round statistics depend on: imports, reviews, and the
 * version of the run's rollups, which the database bumps on every change of a task's statistics
 * columns (a bulk UPDATE of review states too, whether or not it writes reviews). */
export async function getRoundDataVersion(db: Db, runName: string): Promise<{ runId: number; meta: Record<string, unknown>; version: string } | null> {
  const [row] = await execRows<{ id: number; meta: Record<string, unknown>; ingested_at: string; import_id: number | null; review_id: number | null; rollup_version: string | null }>(
    db,
    sql`SELECT r.id, r.meta, r.ingested_at::text AS ingested_at,
        (SELECT max(i.id) FROM imports i WHERE i.run_id = r.id AND i.status = 'done') AS import_id,
        (SELECT max(v.id) FROM reviews v) AS review_id,
        (SELECT s.version FROM round_rollup_state s WHERE s.run_id = r.id) AS rollup_version
      FROM runs r WHERE r.name = ${runName}`,
  );
  if (!row) return null;
  const parts = [row.id, row.ingested_at, row.import_id ?? 0, row.review_id ?? 0, row.rollup_version ?? "-"];
  return { runId: Number(row.id), meta: row.meta, version: parts.join(":") };
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
