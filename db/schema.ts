// The only source of row types. Designed for all twelve capabilities (PRODUCT.md):
// later issues add columns and tables; they should not need to reshape these.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  foreignKey,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { CheckKind, ReviewDecision, ReviewState, Role, TaskStatus } from "@/lib/domain";

export * from "@/lib/domain";

const tsvector = customType<{ data: string }>({
  dataType() {
    return "tsvector";
  },
});

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });

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
});

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
 * `reader` names the reading and its version (`pytest@1`, `shell@1:/app`).
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
    search: tsvector("search").notNull(),
  },
  (t) => [index("task_search_idx").using("gin", t.search)],
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


/** Shaped for Better Auth's Drizzle adapter (issue 3) plus our role and deactivation. */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role").$type<Role>().notNull().default("viewer"),
  active: boolean("active").notNull().default(true),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Better Auth sessions: a signed cookie names one row; deleting the row signs that browser out. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Better Auth accounts: for us only the "credential" provider, holding the password hash. */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

/** Better Auth verification values (unused by email + password today; the adapter expects the table). */
export const verifications = pgTable("verifications", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** API tokens for pipelines: only a SHA-256 of the secret is kept; the secret is shown once. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    role: text("role").$type<Role>().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the token, to recognise it in lists. */
    prefix: text("prefix").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    revokedBy: text("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("api_tokens_created_idx").on(t.createdAt)],
);

/** Installation settings that must survive restarts (e.g. the generated session-signing secret). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});


/** Append-only: the current review state is derived from the latest row. */
export const reviews = pgTable(
  "reviews",
  {
    id: serial("id").primaryKey(),
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id),
    /** Who decided, as labelled then: a user's email, a token's name (migration 0014). */
    actorLabel: text("actor_label"),
    decision: text("decision").$type<ReviewDecision>().notNull(),
    reason: text("reason"),
    note: text("note"),
    baseVersion: integer("base_version").notNull(),
    contentHash: text("content_hash").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("reviews_task_version_uq").on(t.taskId, t.baseVersion),
    index("reviews_user_idx").on(t.userId),
    // Review queues count a member done by a decision made after it was added (0007).
    index("reviews_task_created_idx").on(t.taskId, t.createdAt),
  ],
);


export const flags = pgTable(
  "flags",
  {
    id: serial("id").primaryKey(),
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    /** A rule id from FLAG_RULES, or "manual". */
    rule: text("rule").notNull(),
    source: text("source").$type<"auto" | "manual">().notNull(),
    status: text("status").$type<"open" | "resolved" | "dismissed">().notNull().default("open"),
    severity: text("severity").$type<"low" | "medium" | "high">().notNull().default("medium"),
    message: text("message").notNull(),
    /** {trial_id?, file?, line?, test?, …}: where a reviewer should look. */
    evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull().default({}),
    contentHash: text("content_hash").notNull(),
    createdBy: text("created_by").references(() => users.id),
    /** Who raised a manual flag as the audit log names them (an email, or a token's label); null for automatic flags. */
    createdByLabel: text("created_by_label"),
    createdAt: ts("created_at").notNull().defaultNow(),
    resolvedBy: text("resolved_by").references(() => users.id),
    resolvedByLabel: text("resolved_by_label"),
    resolvedAt: ts("resolved_at"),
    resolution: text("resolution"),
  },
  (t) => [
    index("flags_task_idx").on(t.taskId),
    index("flags_rule_idx").on(t.rule, t.status),
    uniqueIndex("flags_auto_uq")
      .on(t.taskId, t.rule, t.contentHash)
      .where(sql`source = 'auto'`),
  ],
);

/**
 * A review queue: the tasks a task-table filter matched when it was made (or refreshed), worked
 * one at a time. `filter` is the task-table query string (lib/tasks/filter.ts).
 */
export const reviewQueues = pgTable("review_queues", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  filter: text("filter").notNull().default(""),
  /** How long a task handed to a reviewer stays theirs without a decision. */
  reservationMinutes: integer("reservation_minutes").notNull().default(15),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdByLabel: text("created_by_label"),
  createdAt: ts("created_at").notNull().defaultNow(),
  archivedAt: ts("archived_at"),
});

/** Members of a queue: the primary key makes adding a task twice a no-op. */
export const queueItems = pgTable(
  "queue_items",
  {
    queueId: integer("queue_id")
      .notNull()
      .references(() => reviewQueues.id, { onDelete: "cascade" }),
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** A member is done once a decision (not a skip) is recorded on its task after this. */
    addedAt: ts("added_at").notNull().defaultNow(),
    addedBy: text("added_by"),
    /** When that decision came; set by the reviews trigger of migration 0011, in the decision's transaction. */
    doneAt: ts("done_at"),
    /** The task's latest decision (not a skip) since it joined, and who made it; kept with done_at (migration 0014). */
    decision: text("decision").$type<ReviewDecision>(),
    decidedAt: ts("decided_at"),
    decidedBy: text("decided_by"),
    decidedByUser: text("decided_by_user"),
  },
  (t) => [
    primaryKey({ columns: [t.queueId, t.taskId] }),
    index("queue_items_position_idx").on(t.queueId, t.position, t.taskId),
    index("queue_items_task_idx").on(t.taskId),
    index("queue_items_open_idx").on(t.queueId, t.position, t.taskId).where(sql`done_at IS NULL`),
    index("queue_items_decided_idx").on(t.queueId, t.decidedByUser, t.decidedAt).where(sql`done_at IS NOT NULL`),
  ],
);

/** A member handed to one reviewer (`holder`: a user id or `token:<id>`) until `expires_at`. */
export const queueReservations = pgTable(
  "queue_reservations",
  {
    queueId: integer("queue_id").notNull(),
    taskId: integer("task_id").notNull(),
    holder: text("holder").notNull(),
    holderLabel: text("holder_label").notNull(),
    reservedAt: ts("reserved_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.queueId, t.taskId] }),
    foreignKey({ name: "queue_reservations_item_fk", columns: [t.queueId, t.taskId], foreignColumns: [queueItems.queueId, queueItems.taskId] }).onDelete("cascade"),
    index("queue_reservations_holder_idx").on(t.queueId, t.holder),
  ],
);

/** Members a reviewer skipped: not handed to them again (others still get them). */
export const queueSkips = pgTable(
  "queue_skips",
  {
    queueId: integer("queue_id").notNull(),
    taskId: integer("task_id").notNull(),
    holder: text("holder").notNull(),
    skippedAt: ts("skipped_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.queueId, t.taskId, t.holder] }),
    foreignKey({ name: "queue_skips_item_fk", columns: [t.queueId, t.taskId], foreignColumns: [queueItems.queueId, queueItems.taskId] }).onDelete("cascade"),
  ],
);

/** One row per ingest attempt: what the Overview shows as "last ingest". */
export const imports = pgTable("imports", {
  id: serial("id").primaryKey(),
  runId: integer("run_id").references(() => runs.id, { onDelete: "set null" }),
  runName: text("run_name").notNull(),
  format: text("format").notNull(),
  sourcePath: text("source_path").notNull(),
  /** "host:pid" of the importing process, so a restart fails only imports whose process died. */
  process: text("process"),
  status: text("status").$type<"running" | "done" | "unchanged" | "failed">().notNull(),
  summary: jsonb("summary").$type<Record<string, unknown>>().notNull().default({}),
  error: text("error"),
  startedAt: ts("started_at").notNull().defaultNow(),
  finishedAt: ts("finished_at"),
});

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: ts("at").notNull().defaultNow(),
    actorId: text("actor_id"),
    actorLabel: text("actor_label"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index("audit_at_idx").on(t.at),
    index("audit_action_idx").on(t.action, t.at),
    index("audit_actor_idx").on(t.actorId, t.at),
    // One bulk decision per (actor, idempotency key): a double submit finds the first (db/queries/bulk-review.ts).
    uniqueIndex("audit_bulk_key_uq")
      .on(sql`(${t.details}->>'actor')`, sql`(${t.details}->>'idempotency_key')`)
      .where(sql`action = 'review.bulk'`),
  ],
);

/** A named filter of the task table: its query string, shared by URL; unique name per creator. */
export const savedViews = pgTable(
  "saved_views",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** The task table's query string without paging (lib/tasks/filter.ts taskFilterToSearch). */
    query: text("query").notNull(),
    /** The actor id (a user id, or `token:<id>`): tokens save views too, so no foreign key. */
    createdBy: text("created_by").notNull(),
    createdByLabel: text("created_by_label").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    shared: boolean("shared").notNull().default(true),
  },
  (t) => [uniqueIndex("saved_views_creator_name_uq").on(t.createdBy, t.name)],
);

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
  ],
);

export type Run = typeof runs.$inferSelect;
export type Task = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;
export type Trial = typeof trials.$inferSelect;
export type Flag = typeof flags.$inferSelect;
export type Import = typeof imports.$inferSelect;
export type SavedView = typeof savedViews.$inferSelect;
export type ReviewQueue = typeof reviewQueues.$inferSelect;
