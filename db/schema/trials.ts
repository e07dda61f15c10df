// Sandbox validation: trials with their per-test results and their logs.
import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { CheckKind } from "@/lib/domain";
import { ts } from "./columns";
import { blobs, runs, tasks } from "./tasks";

export const trials = pgTable(
  "trials",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    taskId: integer("task_id").references(() => tasks.id, { onDelete: "cascade" }),
    /** trial_name from result.json (or the directory name). */
    extId: text("ext_id").notNull(),
    check: text("check").$type<CheckKind>().notNull(),
    agentName: text("agent_name"),
    modelName: text("model_name"),
    reward: doublePrecision("reward"),
    rewards: jsonb("rewards").$type<Record<string, number>>(),
    exceptionType: text("exception_type"),
    exceptionMessage: text("exception_message"),
    taskChecksum: text("task_checksum"),
    /** Content hash of the task the trial ran against (for flaky-verifier and flags). */
    contentHash: text("content_hash"),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    /** {environment_setup, agent_setup, agent_execution, verifier}: {started_at, finished_at}. */
    phases: jsonb("phases").$type<Record<string, { started_at: string | null; finished_at: string | null }>>(),
    /** What was wrong with the trial's own files (e.g. a reward file holding text): kept, not fatal. */
    problems: jsonb("problems").$type<string[]>(),
    /** Where the trial came from: "run" (a native run's trials/) or the job directory it was ingested from. */
    source: text("source"),
  },
  (t) => [
    uniqueIndex("trials_run_ext_uq").on(t.runId, t.taskId, t.extId),
    index("trials_task_idx").on(t.taskId),
    // The round statistics' validation rate; migration 0006 adds INCLUDE (reward), so that it
    // reads this small index instead of every trial row.
    index("trials_oracle_idx").on(t.runId, t.taskId).where(sql`"check" = 'oracle'`),
    // The Validation page (runValidation): migration 0018 adds INCLUDE ("check", reward,
    // exception_type), so that it reads this index instead of every trial row of the run.
    index("trials_validation_idx").on(t.runId, t.taskId),
  ],
);

export const trialTests = pgTable(
  "trial_tests",
  {
    trialId: integer("trial_id")
      .notNull()
      .references(() => trials.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    name: text("name").notNull(),
    status: text("status").notNull(),
    durationMs: doublePrecision("duration_ms"),
    message: text("message"),
    /** The log and 0-based line where this test's failure is reported, when it could be found. */
    logName: text("log_name"),
    logLine: integer("log_line"),
  },
  (t) => [primaryKey({ columns: [t.trialId, t.seq] })],
);

export const trialLogs = pgTable(
  "trial_logs",
  {
    trialId: integer("trial_id")
      .notNull()
      .references(() => trials.id, { onDelete: "cascade" }),
    /** Path inside the trial directory, e.g. "verifier/test-stdout.txt". */
    name: text("name").notNull(),
    blobHash: text("blob_hash")
      .notNull()
      .references(() => blobs.hash),
    bytes: integer("bytes").notNull(),
    lines: integer("lines").notNull(),
    /** Its lines are in log_chunks (large logs); small logs are split from the blob when read. */
    chunked: boolean("chunked").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.trialId, t.name] })],
);

/**
 * Large logs cut at line boundaries so any window of lines is read without touching the rest
 * (the whole log stays in `blobs` for raw download). Lines longer than the cap are stored clipped;
 * `clipped` lists [line offset within the chunk, full length in characters].
 */
export const logChunks = pgTable(
  "log_chunks",
  {
    blobHash: text("blob_hash")
      .notNull()
      .references(() => blobs.hash),
    firstLine: integer("first_line").notNull(),
    lineCount: integer("line_count").notNull(),
    content: text("content").notNull(),
    clipped: jsonb("clipped").$type<[number, number][]>(),
  },
  (t) => [primaryKey({ columns: [t.blobHash, t.firstLine] })],
);

export type Trial = typeof trials.$inferSelect;
