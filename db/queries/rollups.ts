// Per-run rollups of the round statistics (migration 0010): task counts per round and slice
// value, and value histograms of the accepted tasks' metrics per round for every combination of
// the slice filters, from which the Rounds page's counts, means and exact percentiles are read
// without touching a task row. Design and numbers: docs/benchmarks.md "Round statistics at scale".
//
// - Built here, from the run's tasks and oracle trials, at the end of every import (inside its
//   transaction: withRoundRollups), and on the first read of a run that has none.
// - Kept current by the database: the statement trigger round_rollups_follow_tasks adds every
//   UPDATE of tasks (a decision, a bulk decision, any writer) as a delta, old rows -1, new +1.
// - Read by db/queries/stats.ts for every slice without a seed family.
import { sql, type SQL } from "drizzle-orm";
import type { RoundSliceJson } from "@/lib/api/types";
import { PERCENTILES, ROUND_METRICS } from "@/lib/rounds/metrics";
import { execRows, type Db } from "../client";

/** The metric columns as (name, value) pairs; identifiers come from ROUND_METRICS only. The
 * trigger in migration 0010 lists the same five. */
const metricValues = (alias: string) => sql.raw(`(VALUES ${ROUND_METRICS.map((m) => `('${m}', ${alias}.${m})`).join(", ")})`);

/** Whether a slice is answered from the rollups: every filter but the seed family is covered. */
export function rollupCovers(slice: RoundSliceJson): boolean {
  return slice.root === undefined;
}

/** GROUPING(category, operator, review_state): a bit is set for each dimension summed over. */
export function rollupLevel(slice: RoundSliceJson): number {
  return (slice.category === undefined ? 4 : 0) | (slice.operator === undefined ? 2 : 0) | (slice.review === undefined ? 1 : 0);
}

export async function roundRollupVersion(db: Db, runId: number): Promise<number | null> {
  const [row] = await execRows<{ version: string | number }>(db, sql`SELECT version FROM round_rollup_state WHERE run_id = ${runId}`);
  return row ? Number(row.version) : null;
}

/**
 * Replaces a run's rollups with ones computed from its tasks. Takes the run's state row first
 * (concurrent trigger deltas wait, then apply on top); for a run without rollups it also holds
 * off task updates until commit (SHARE lock), since their trigger skips runs that have none.
 */
export async function rebuildRoundRollups(tx: Db, runId: number, opts: { tasksChanged?: boolean } = {}): Promise<void> {
  // The histograms read tasks only: after an import of trials alone only the cells (their oracle
  // outcomes) are rebuilt.
  const existing = await execRows<{ run_id: number }>(tx, sql`SELECT run_id FROM round_rollup_state WHERE run_id = ${runId} FOR UPDATE`);
  const values = opts.tasksChanged !== false || existing.length === 0;
  if (existing.length === 0) await tx.execute(sql`LOCK TABLE tasks IN SHARE MODE`);
  await tx.execute(sql`SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('work_mem', '64MB', true)`);
  await tx.execute(sql`INSERT INTO round_rollup_state (run_id) VALUES (${runId})
    ON CONFLICT (run_id) DO UPDATE SET version = round_rollup_state.version + 1, built_at = now()`);
  await tx.execute(sql`DELETE FROM round_rollup_cells WHERE run_id = ${runId}`);
  if (values) await tx.execute(sql`DELETE FROM round_rollup_values WHERE run_id = ${runId}`);
  await tx.execute(sql`INSERT INTO round_rollup_cells
      (run_id, round, category, operator, review_state, status, rejection_reason, passed, n, solver_n, pass_at_k_sum, reward_n, mean_reward_sum)
    SELECT t.run_id, t.round, t.category, t.operator, t.review_state, t.status, t.rejection_reason, o.passed,
      count(*), count(t.pass_at_k), coalesce(sum(t.pass_at_k), 0), count(t.mean_reward), coalesce(sum(t.mean_reward), 0)
    FROM tasks t LEFT JOIN (
        SELECT task_id, bool_and(coalesce(reward, 0) >= 1) AS passed FROM trials
        WHERE run_id = ${runId} AND "check" = 'oracle' GROUP BY task_id
      ) o ON o.task_id = t.id
    WHERE t.run_id = ${runId} AND t.round IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`);
  if (values) {
    await tx.execute(sql`INSERT INTO round_rollup_values (run_id, level, category, operator, review_state, round, metric, value, n)
    SELECT t.run_id, GROUPING(t.category, t.operator, t.review_state), t.category, t.operator, t.review_state, t.round, m.metric, m.value, count(*)
    FROM tasks t CROSS JOIN LATERAL ${metricValues("t")} m(metric, value)
    WHERE t.run_id = ${runId} AND t.round IS NOT NULL AND t.status = 'accepted' AND m.value IS NOT NULL
    GROUP BY t.run_id, t.round, m.metric, m.value, CUBE (t.category, t.operator, t.review_state)`);
  }
  // Planner statistics for the freshly written rows (within the transaction, like the import's
  // ANALYZE of tasks): without them a first read was planned as nested loops over CTEs (0.9 s).
  await tx.execute(values ? sql`ANALYZE round_rollup_cells, round_rollup_values` : sql`ANALYZE round_rollup_cells`);
}

/**
 * Wraps an import's writes (inside its transaction): the trigger stands aside while the import
 * writes (rst.round_rollups = 'deferred', this transaction only), and the run's rollups are
 * rebuilt from its tasks and trials before the commit, so no reader ever sees new tasks with old
 * rollups. An unchanged import leaves them as they are.
 */
export async function withRoundRollups<T extends { runId: number; unchanged: boolean; counts: { tasksNew: number; tasksChanged: number } }>(
  tx: Db,
  write: () => Promise<T>,
): Promise<T> {
  await tx.execute(sql`SELECT set_config('rst.round_rollups', 'deferred', true)`);
  const written = await write();
  await tx.execute(sql`SELECT set_config('rst.round_rollups', '', true)`);
  if (!written.unchanged || (await roundRollupVersion(tx, written.runId)) === null) {
    await rebuildRoundRollups(tx, written.runId, { tasksChanged: written.counts.tasksNew + written.counts.tasksChanged > 0 });
  }
  return written;
}

/**
 * Builds a run's rollups if it has none; false when that is impossible (a read-only connection),
 * and the statistics are then computed from the tasks.
 */
export async function ensureRoundRollups(db: Db, runId: number): Promise<boolean> {
  if ((await roundRollupVersion(db, runId)) !== null) return true;
  try {
    await db.transaction(async (tx) => rebuildRoundRollups(tx, runId));
    return true;
  } catch {
    return false;
  }
}

/** The slice's filters on rollup rows: a named dimension matches its value, a summed one is null. */
function sliceFilter(slice: RoundSliceJson, summedIsNull: boolean): SQL {
  const dim = (col: string, v: string | undefined) =>
    v !== undefined ? sql`AND ${sql.raw(col)} = ${v}` : summedIsNull ? sql`AND ${sql.raw(col)} IS NULL` : sql``;
  return sql`${dim("category", slice.category)} ${dim("operator", slice.operator)} ${dim("review_state", slice.review)}`;
}

/**
 * The two sources the round statistics are assembled from (see roundDetailFrom in stats.ts), read
 * from the rollups:
 * - cells: (round, status, rejection_reason, operator, passed, n), as counted from the tasks;
 * - accepted: per round the solver means and, per metric, n and the percentiles, computed exactly
 *   as percentile_cont does (linear interpolation between the values at ranks floor and ceil of
 *   p·(n−1), in double precision) from the cumulative counts of the value histogram.
 */
export function rollupSources(runId: number, slice: RoundSliceJson): { cells: SQL; accepted: SQL; ctes: SQL } {
  const cellWhere = sql`run_id = ${runId} ${sliceFilter(slice, false)}`;
  const level = rollupLevel(slice);
  const rank = (p: number, f: "floor" | "ceil") => `${f}(${p}::float8 * (total - 1))`;
  const bounds = PERCENTILES.flatMap(([key, p]) => [
    `min(value) FILTER (WHERE cum > ${rank(p, "floor")}) AS ${key}_lo`,
    `min(value) FILTER (WHERE cum > ${rank(p, "ceil")}) AS ${key}_hi`,
  ]).join(", ");
  const lerp = (key: string, p: number) =>
    `${key}_lo::float8 + (${key}_hi::float8 - ${key}_lo::float8) * (${p}::float8 * (total - 1) - ${rank(p, "floor")})`;
  const pivot = ROUND_METRICS.flatMap((m) => [
    `coalesce(max(total) FILTER (WHERE metric = '${m}'), 0)::int AS ${m}_n`,
    ...PERCENTILES.map(([key, p]) => `max(${lerp(key, p)}) FILTER (WHERE metric = '${m}') AS ${m}_${key}`),
  ]).join(",\n          ");
  const ctes = sql`hist AS (
        SELECT round, metric, value, sum(n) OVER (PARTITION BY round, metric ORDER BY value) AS cum, sum(n) OVER (PARTITION BY round, metric) AS total
        FROM round_rollup_values
        WHERE run_id = ${runId} AND level = ${level} ${sliceFilter(slice, true)} AND n > 0
      ),
      bounds AS MATERIALIZED (
        SELECT round, metric, max(total) AS total, ${sql.raw(bounds)}
        FROM hist GROUP BY round, metric
      ),
      percentiles AS MATERIALIZED (
        SELECT round,
          ${sql.raw(pivot)}
        FROM bounds GROUP BY round
      ),
      rollup_cells AS MATERIALIZED (
        SELECT round, status, rejection_reason, operator, passed, sum(n)::int AS n,
          sum(solver_n) AS solver_n, sum(pass_at_k_sum) AS pass_at_k_sum, sum(reward_n) AS reward_n, sum(mean_reward_sum) AS mean_reward_sum
        FROM round_rollup_cells WHERE ${cellWhere}
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) > 0
      ),
      solver AS MATERIALIZED (
        SELECT round,
          sum(pass_at_k_sum) / nullif(sum(solver_n), 0) AS pass_at_k,
          sum(mean_reward_sum) / nullif(sum(reward_n), 0) AS mean_reward,
          sum(solver_n)::int AS solver_n
        FROM rollup_cells WHERE status = 'accepted'
        GROUP BY round
      ),`;
  // One pass over the slice's cells feeds both the counts and the solver means.
  const cells = sql`SELECT round, status, rejection_reason, operator, passed, n FROM rollup_cells`;
  const accepted = sql`SELECT s.round, s.pass_at_k, s.mean_reward, s.solver_n, ${sql.raw(
    ROUND_METRICS.flatMap((m) => [`coalesce(p.${m}_n, 0) AS ${m}_n`, ...PERCENTILES.map(([key]) => `p.${m}_${key}`)]).join(", "),
  )}
        FROM solver s LEFT JOIN percentiles p ON p.round = s.round`;
  return { cells, accepted, ctes };
}
