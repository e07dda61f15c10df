// What happened: imports and the audit log.
import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { runs } from "./tasks";

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

export type Import = typeof imports.$inferSelect;
