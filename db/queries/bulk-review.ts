// Bulk review decisions on a task-table filter: set-based, in one transaction, on exactly the
// tasks the filter matches at that moment (the table's own WHERE clause, db/queries/tasks.ts).
// Each task gets its review row (based on the version it had, bumping it, so an open task page
// meets the usual conflict) and its audit row; the bulk action gets one audit row of its own.
import { sql } from "drizzle-orm";
import type { BulkPreviewJson, BulkResultJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { DECISION_STATE, type RejectReason, type ReviewDecision, type ReviewState } from "@/lib/domain";
import type { TaskFilter } from "@/lib/tasks/filter";
import { execRows, type Db } from "../client";
import { auditLog, reviews, tasks } from "../schema";
import { planTextSearch } from "./task-search";
import { taskFilterWhere } from "./tasks";

export const BULK_ACTION = "review.bulk";

export interface BulkDecisionInput {
  filter: TaskFilter;
  /** The canonical query string of `filter`, for the audit log and the answer. */
  search: string;
  decision: ReviewDecision;
  reason: RejectReason | null;
  note: string | null;
  /** The count the reviewer confirmed: anything else rolls back and answers the new count. */
  expectedCount: number;
  idempotencyKey: string;
}

export type BulkDecisionResult = { ok: true; result: BulkResultJson } | { ok: false; problem: "count_changed"; count: number };

class CountChanged extends Error {
  constructor(readonly count: number) {
    super(`count changed to ${count}`);
  }
}

/** A text search is planned as in listTasks (db/queries/task-search.ts planTextSearch). */
async function searchThroughIndex(tx: Db, filter: TaskFilter) {
  if (filter.q) await planTextSearch(tx);
}

/** The exact count (no cap: the reviewer confirms this number), the review states, a sample. */
export async function previewBulk(db: Db, filter: TaskFilter, search: string): Promise<BulkPreviewJson> {
  const where = taskFilterWhere(filter) ?? sql`true`;
  return db.transaction(async (tx) => {
    await searchThroughIndex(tx as unknown as Db, filter);
    const q = tx as unknown as Db;
    const byReview = await execRows<{ review: ReviewState; n: number }>(
      q,
      sql`SELECT ${tasks.reviewState} AS review, count(*)::int AS n FROM ${tasks} WHERE ${where} GROUP BY 1 ORDER BY 2 DESC, 1`,
    );
    const sample = await execRows<{ id: number; ext_id: string }>(
      q,
      sql`SELECT ${tasks.id} AS id, ${tasks.extId} AS ext_id FROM ${tasks} WHERE ${where} ORDER BY ${tasks.id} LIMIT 5`,
    );
    return {
      filter: search,
      count: byReview.reduce((n, r) => n + Number(r.n), 0),
      by_review: byReview.map((r) => ({ review: r.review, count: Number(r.n) })),
      sample: sample.map((r) => ({ id: Number(r.id), task_id: r.ext_id })),
    };
  });
}

type StoredBulk = { id: number; details: { filter: string; count: number; decision: ReviewDecision; reason: string | null; review: ReviewState } };

function resultOf(row: StoredBulk, replayed: boolean): BulkResultJson {
  const d = row.details;
  return { bulk_id: Number(row.id), filter: d.filter, count: Number(d.count), decision: d.decision, reason: d.reason, review: d.review, replayed };
}

/**
 * Applies the decision to every task matching the filter now, or to none. A repeated
 * idempotency key (a double click, a retried script) is answered with the first result: the
 * advisory lock makes a concurrent repeat wait for the first to commit, then find its audit row.
 */
export async function applyBulkDecision(db: Db, input: BulkDecisionInput, actor: Actor): Promise<BulkDecisionResult> {
  const state = DECISION_STATE[input.decision];
  try {
    const result = await db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`bulk:${actor.id}:${input.idempotencyKey}`}))`);
      const [done] = await execRows<StoredBulk>(
        tx,
        sql`SELECT id, details FROM ${auditLog} WHERE action = ${BULK_ACTION}
            AND details->>'actor' = ${actor.id} AND details->>'idempotency_key' = ${input.idempotencyKey}`,
      );
      if (done) return resultOf(done, true);

      const details = {
        actor: actor.id,
        idempotency_key: input.idempotencyKey,
        filter: input.search,
        count: input.expectedCount,
        decision: input.decision,
        reason: input.reason,
        note: input.note,
        review: state,
      };
      const [bulk] = await tx
        .insert(auditLog)
        .values({ actorId: actor.userId, actorLabel: actor.label, action: BULK_ACTION, targetType: "tasks", targetId: input.search, details })
        .returning({ id: auditLog.id });
      if (!bulk) throw new Error("bulk audit insert returned nothing");

      await searchThroughIndex(tx, input.filter);
      const where = taskFilterWhere(input.filter) ?? sql`true`;
      // One statement: the row locks of the UPDATE fix the set; a task changed meanwhile by a
      // single decision is re-checked against the filter and, if it still matches, is based on
      // its new version. Reviews and audit rows come from the UPDATE's RETURNING, not a re-read.
      const [applied] = await execRows<{ n: number }>(
        tx,
        sql`WITH updated AS (
              UPDATE ${tasks} SET review_state = ${state}, version = ${tasks.version} + 1
              WHERE ${where}
              RETURNING ${tasks.id} AS id, ${tasks.version} AS version, ${tasks.contentHash} AS content_hash
            ), inserted AS (
              INSERT INTO ${reviews} (task_id, user_id, actor_label, decision, reason, note, base_version, content_hash)
              SELECT id, ${actor.userId}, ${actor.label}, ${input.decision}, ${input.reason}, ${input.note}, version - 1, content_hash FROM updated
              RETURNING id, task_id, base_version, content_hash
            ), audited AS (
              INSERT INTO ${auditLog} (actor_id, actor_label, action, target_type, target_id, details)
              SELECT ${actor.userId}, ${actor.label}, 'review', 'task', task_id::text,
                jsonb_build_object('review_id', id, 'decision', ${input.decision}::text, 'reason', ${input.reason}::text,
                  'base_version', base_version, 'version', base_version + 1, 'content_hash', content_hash, 'bulk_id', ${bulk.id}::bigint)
              FROM inserted
              RETURNING 1
            )
            SELECT count(*)::int AS n FROM audited`,
      );
      const count = Number(applied?.n ?? 0);
      if (count !== input.expectedCount) throw new CountChanged(count);
      return resultOf({ id: bulk.id, details }, false);
    });
    return { ok: true, result };
  } catch (err) {
    if (err instanceof CountChanged) return { ok: false, problem: "count_changed", count: err.count };
    throw err;
  }
}
