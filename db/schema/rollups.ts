// Round statistics: per-run rollups and saved baselines.
import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, serial, smallint, text, unique } from "drizzle-orm/pg-core";
import type { ReviewState, TaskStatus } from "@/lib/domain";
import { ts } from "./columns";
import { runs } from "./tasks";

/** Round statistics saved under a name, to compare later runs against. */
export const baselines = pgTable("baselines", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  runName: text("run_name").notNull(),
  /** The slice the statistics were computed for (same keys as the Rounds page URL). */
  slice: jsonb("slice").$type<Record<string, unknown>>().notNull().default({}),
  stats: jsonb("stats").$type<Record<string, unknown>>().notNull(),
  createdBy: text("created_by"),
  createdAt: ts("created_at").notNull().defaultNow(),
});

// Per-run rollups of the round statistics (migration 0010, db/queries/rollups.ts): built at the
// end of every import, kept current on every UPDATE of tasks by the statement trigger
// round_rollups_follow_tasks (in the migration: drizzle cannot express triggers).
export const roundRollupState = pgTable("round_rollup_state", {
  runId: integer("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  /** Bumped by every rebuild and every trigger delta: part of the statistics' cache key. */
  version: bigint("version", { mode: "number" }).notNull().default(0),
  builtAt: ts("built_at").notNull().defaultNow(),
});

/** Task counts (and solver sums) per round and value of every column the statistics group by. */
export const roundRollupCells = pgTable(
  "round_rollup_cells",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    category: text("category"),
    operator: text("operator"),
    reviewState: text("review_state").$type<ReviewState>().notNull(),
    status: text("status").$type<TaskStatus>().notNull(),
    rejectionReason: text("rejection_reason"),
    /** Every oracle trial passed; null: the task has none. */
    passed: boolean("passed"),
    n: integer("n").notNull(),
    solverN: integer("solver_n").notNull(),
    passAtKSum: doublePrecision("pass_at_k_sum").notNull(),
    rewardN: integer("reward_n").notNull(),
    meanRewardSum: doublePrecision("mean_reward_sum").notNull(),
  },
  (t) => [
    unique("round_rollup_cells_key")
      .on(t.runId, t.round, t.category, t.operator, t.reviewState, t.status, t.rejectionReason, t.passed)
      .nullsNotDistinct(),
    // The rows a delta brought to zero, found without reading the run's other rows.
    index("round_rollup_cells_zero_idx").on(t.runId).where(sql`n = 0`),
  ],
);

/** Value histograms of the accepted tasks' metrics per round; level = GROUPING(category,
 * operator, review_state): a summed dimension is null and its bit set (7 = whole run). */
export const roundRollupValues = pgTable(
  "round_rollup_values",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    level: smallint("level").notNull(),
    category: text("category"),
    operator: text("operator"),
    reviewState: text("review_state"),
    round: integer("round").notNull(),
    metric: text("metric").notNull(),
    value: integer("value").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [
    unique("round_rollup_values_key")
      .on(t.runId, t.level, t.category, t.operator, t.reviewState, t.round, t.metric, t.value)
      .nullsNotDistinct(),
    index("round_rollup_values_zero_idx").on(t.runId).where(sql`n = 0`),
  ],
);
