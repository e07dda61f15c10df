// Runs, their tasks with lineage and metrics, the files they hold (stored once by content), the
// tasks' search vectors and their solver evaluations.
import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, json, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { InferredLineage, ReviewState, TaskStatus } from "@/lib/domain";
import { ts, tsvector } from "./columns";

export const runs = pgTable("runs", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  format: text("format").notNull(),
  sourcePath: text("source_path"),
  /** run.json as written by the pipeline (seeds, rounds, solver, …). */
  meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default({}),
  /** sha256 over the input's content: a re-import with the same digest changes nothing. */
  sourceDigest: text("source_digest"),
  createdAt: ts("created_at"),
  ingestedAt: ts("ingested_at").notNull().defaultNow(),
  /** Task and trial counts as the last import left them (db/queries/runs.ts: every page lists
   * the runs; counting a paper-scale run's rows each time took ≈ 0.2 s). Null: counted live. */
  counts: jsonb("counts").$type<RunCounts>(),
  /** The Validation page as computed after the run's latest finished import (db/queries/trials.ts
   * runValidation: `{ import_id, value }`); recomputed when another import has finished since. */
  validation: jsonb("validation").$type<{ import_id: number; value: unknown }>(),
});

export interface RunCounts {
  seeds: number;
  rounds: number;
  accepted: number;
  rejected: number;
  trials: number;
}

/** File contents stored once by SHA-256: a child shares most of its parent's bytes. */
export const blobs = pgTable("blobs", {
  hash: text("hash").primaryKey(),
  size: integer("size").notNull(),
  /** utf8 text with NUL bytes escaped as U+2400, or base64 for binary content. */
  encoding: text("encoding").$type<"utf8" | "base64">().notNull(),
  content: text("content").notNull(),
});

/**
 * What the consistency checks read of a blob (lib/checks/readings.ts): its pytest tests and paths,
 * or the files a solution script makes, computed at import where the file is parsed anyway.
 * `reader` names the reading and its version (`pytest@3`, `shell@4:/app`).
 */
export const checkReadings = pgTable(
  "check_readings",
  {
    hash: text("hash").notNull(),
    reader: text("reader").notNull(),
    /** json, not jsonb: never queried inside, only read whole, and json comes back as stored */
    reading: json("reading").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hash, t.reader] })],
);


export const tasks = pgTable(
  "tasks",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** The task id as the pipeline wrote it (unique within a run). */
    extId: text("ext_id").notNull(),
    parentId: integer("parent_id"),
    parentExtId: text("parent_ext_id"),
    /** Set when the parent link (and a round taken from the depth) was inferred from content
     * (C12, lib/lineage/infer.ts), not declared by the pipeline: the confidence and its evidence. */
    lineageInferred: jsonb("lineage_inferred").$type<InferredLineage>(),
    /** The seed this task descends from (itself for seeds). */
    rootId: integer("root_id"),
    /** Materialized path of ids from the seed, e.g. "/12/57/301/", for subtree queries. */
    path: text("path").notNull().default("/"),
    round: integer("round"),
    depth: integer("depth").notNull().default(0),
    operator: text("operator"),
    status: text("status").$type<TaskStatus>().notNull(),
    rejectionReason: text("rejection_reason"),
    repairAttempts: integer("repair_attempts").notNull().default(0),
    name: text("name"),
    category: text("category"),
    declaredDifficulty: text("declared_difficulty"),
    createdAt: ts("created_at"),
    /** sha256 over the sorted (path, blob hash) list: what reviews and flags are tied to. */
    contentHash: text("content_hash").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    // Measured metrics (lib/metrics), never read from [metadata].difficulty.
    solutionLines: integer("solution_lines"),
    commands: integer("commands"),
    distinctTools: integer("distinct_tools"),
    instructionWords: integer("instruction_words"),
    verifierTests: integer("verifier_tests"),
    verifierAsserts: integer("verifier_asserts"),
    evalModel: text("eval_model"),
    evalK: integer("eval_k"),
    evalN: integer("eval_n"),
    evalSuccesses: integer("eval_successes"),
    passAtK: doublePrecision("pass_at_k"),
    passAt1: doublePrecision("pass_at_1"),
    meanReward: doublePrecision("mean_reward"),
    // Human curation, separate from the pipeline's status; version guards concurrent writes.
    reviewState: text("review_state").$type<ReviewState>().notNull().default("unreviewed"),
    version: integer("version").notNull().default(1),
    openFlags: integer("open_flags").notNull().default(0),
  },
  (t) => [
    uniqueIndex("tasks_run_ext_uq").on(t.runId, t.extId),
    index("tasks_parent_idx").on(t.parentId),
    index("tasks_root_idx").on(t.rootId),
    index("tasks_path_idx").on(t.path.op("text_pattern_ops")),
    // Migrations 0003 and 0006 rebuild this one with INCLUDE (status, review_state, operator,
    // category, open_flags, the metric columns, and for the round statistics rejection_reason,
    // mean_reward and root_id), which drizzle cannot express: the task table's counts and the
    // round statistics then read the index alone (docs/benchmarks.md).
    index("tasks_run_round_idx").on(t.runId, t.round, t.id),
    // Ordered listing across all runs (and phrase searches without a run): 651 → 15 ms.
    index("tasks_round_idx").on(t.round, t.id),
    index("tasks_run_status_idx").on(t.runId, t.status, t.round),
    // One per sortable column, ending in id, the table's tie-break (migration 0016): a page in
    // any order reads only as far as its end (db/queries/tasks.ts pageRows).
    index("tasks_status_sort_idx").on(t.runId, t.status, t.id),
    index("tasks_operator_idx").on(t.runId, t.operator, t.id),
    index("tasks_category_idx").on(t.runId, t.category, t.id),
    index("tasks_review_idx").on(t.runId, t.reviewState, t.id),
    index("tasks_solution_lines_idx").on(t.runId, t.solutionLines, t.id),
    index("tasks_commands_idx").on(t.runId, t.commands, t.id),
    index("tasks_distinct_tools_idx").on(t.runId, t.distinctTools, t.id),
    index("tasks_instruction_words_idx").on(t.runId, t.instructionWords, t.id),
    index("tasks_verifier_tests_idx").on(t.runId, t.verifierTests, t.id),
    index("tasks_pass_idx").on(t.runId, t.passAtK, t.id),
    index("tasks_mean_reward_idx").on(t.runId, t.meanReward, t.id),
    index("tasks_flags_idx").on(t.runId, t.openFlags, t.id),
  ],
);

/**
 * A task's full-text vector (instruction, solution and verifier words, ≈ 15 kB), in a table of its
 * own: a review decision rewrites the task row (no update of it can be HOT), and with the vector
 * beside it every decision also re-entered all of the task's words in the GIN index (migration 0013).
 */
export const taskSearch = pgTable(
  "task_search",
  {
    taskId: integer("task_id")
      .primaryKey()
      .references(() => tasks.id, { onDelete: "cascade" }),
    /** The task's run, copied (a task never changes run): a search within a run is counted in this
     * table alone (db/queries/tasks.ts countMatches). Deliberately not indexed: an index would let
     * the planner walk a run's rows checking each vector instead of asking the GIN index (0021). */
    runId: integer("run_id").notNull(),
    search: tsvector("search").notNull(),
    /** Hashes of adjacent word pairs, for phrase searches (lib/ingest/search-vector.ts): only those
     * its parent lacks; {0} stands for every pair (migration 0020). */
    pairs: integer("pairs").array().notNull().default(sql`'{0}'::integer[]`),
  },
  (t) => [index("task_search_idx").using("gin", t.search), index("task_search_pairs_idx").using("gin", t.pairs)],
);

export const taskFiles = pgTable(
  "task_files",
  {
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    blobHash: text("blob_hash")
      .notNull()
      .references(() => blobs.hash),
    size: integer("size").notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.path] }), index("task_files_blob_idx").on(t.blobHash)],
);

export const evals = pgTable(
  "evals",
  {
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    model: text("model").notNull(),
    k: integer("k").notNull(),
    n: integer("n").notNull(),
    successes: integer("successes").notNull(),
    meanReward: doublePrecision("mean_reward"),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.model] })],
);

export type Run = typeof runs.$inferSelect;
export type Task = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;
