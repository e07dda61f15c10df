// Review work: decisions (append-only), flags, review queues, saved views of the task table.
import { sql } from "drizzle-orm";
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { ReviewDecision } from "@/lib/domain";
import { ts } from "./columns";
import { users } from "./auth";
import { tasks } from "./tasks";

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

export type Flag = typeof flags.$inferSelect;
export type SavedView = typeof savedViews.$inferSelect;
export type ReviewQueue = typeof reviewQueues.$inferSelect;
