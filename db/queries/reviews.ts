// Review decisions: an append-only history per task, and the task's review state derived from
// it. `tasks.version` guards every write, so two reviewers deciding at once cannot both win.
import { and, desc, eq, sql } from "drizzle-orm";
import type { ReviewJson, ReviewStateJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { DECISION_STATE, type RejectReason, type ReviewDecision } from "@/lib/domain";
import type { Db } from "../client";
import { reviews, tasks, users } from "../schema";
import { recordAudit } from "./audit";

export interface NewReviewRow {
  taskId: number;
  decision: ReviewDecision;
  reason: RejectReason | null;
  note: string | null;
  /** The version the reviewer saw; the write succeeds only while the task is still at it. */
  baseVersion: number;
}

export type RecordReviewResult =
  | { ok: true; state: ReviewStateJson }
  | { ok: false; problem: "not_found" }
  | { ok: false; problem: "conflict"; current: ReviewStateJson };

const reviewColumns = {
  id: reviews.id,
  taskId: reviews.taskId,
  decision: reviews.decision,
  reason: reviews.reason,
  note: reviews.note,
  baseVersion: reviews.baseVersion,
  contentHash: reviews.contentHash,
  createdAt: reviews.createdAt,
  // A token is no user: its label is on the audit row of the same transaction, which shares the
  // review's created_at (both are now()), so the (action, at) index finds it at once.
  by: sql<string | null>`coalesce(${users.email}, (
    SELECT a.actor_label FROM audit_log a
    WHERE a.action = 'review' AND a.at = ${reviews.createdAt}
      AND a.target_type = 'task' AND a.target_id = ${reviews.taskId}::text
      AND a.details->>'review_id' = ${reviews.id}::text
    LIMIT 1))`,
};

type ReviewRow = { id: number; taskId: number; decision: ReviewDecision; reason: string | null; note: string | null; baseVersion: number; contentHash: string; createdAt: string; by: string | null };

function toJson(r: ReviewRow): ReviewJson {
  return {
    id: r.id,
    task_id: r.taskId,
    decision: r.decision,
    reason: r.reason,
    note: r.note,
    by: r.by,
    at: new Date(r.createdAt).toISOString(),
    base_version: r.baseVersion,
    content_hash: r.contentHash,
  };
}

/** The task's decisions, newest first. */
export async function listReviews(db: Db, taskId: number, limit = 1000): Promise<ReviewJson[]> {
  const rows = await db
    .select(reviewColumns)
    .from(reviews)
    .leftJoin(users, eq(users.id, reviews.userId))
    .where(eq(reviews.taskId, taskId))
    .orderBy(desc(reviews.id))
    .limit(limit);
  return rows.map(toJson);
}

/** Version, state and the last decision of a task; null when there is no such task. */
export async function getReviewState(db: Db, taskId: number): Promise<ReviewStateJson | null> {
  const [task] = await db
    .select({ version: tasks.version, review: tasks.reviewState, contentHash: tasks.contentHash })
    .from(tasks)
    .where(eq(tasks.id, taskId));
  if (!task) return null;
  const [last] = await listReviews(db, taskId, 1);
  return { task_id: taskId, version: task.version, review: task.review, content_hash: task.contentHash, last_review: last ?? null };
}

/**
 * Records a decision if the task is still at `baseVersion`: the conditional update takes the row
 * lock, so of many concurrent writers on one version exactly one updates a row; the others see
 * the bumped version and get the current state back. Nothing else is written for them.
 */
export async function recordReview(db: Db, input: NewReviewRow, actor: Actor): Promise<RecordReviewResult> {
  const outcome = await db.transaction(async (tx) => {
    const [task] = await tx
      .update(tasks)
      .set({ reviewState: DECISION_STATE[input.decision], version: sql`${tasks.version} + 1` })
      .where(and(eq(tasks.id, input.taskId), eq(tasks.version, input.baseVersion)))
      .returning({ version: tasks.version, review: tasks.reviewState, contentHash: tasks.contentHash });
    if (!task) return null;
    const [row] = await tx
      .insert(reviews)
      .values({
        taskId: input.taskId,
        userId: actor.userId,
        decision: input.decision,
        reason: input.reason,
        note: input.note,
        baseVersion: input.baseVersion,
        contentHash: task.contentHash,
      })
      .returning();
    if (!row) throw new Error("review insert returned nothing");
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "review",
      targetType: "task",
      targetId: String(input.taskId),
      details: { review_id: row.id, decision: input.decision, reason: input.reason, base_version: input.baseVersion, version: task.version, content_hash: task.contentHash },
    });
    const state: ReviewStateJson = {
      task_id: input.taskId,
      version: task.version,
      review: task.review,
      content_hash: task.contentHash,
      last_review: toJson({ ...row, by: actor.label }),
    };
    return state;
  });
  if (outcome) return { ok: true, state: outcome };
  const current = await getReviewState(db, input.taskId);
  return current ? { ok: false, problem: "conflict", current } : { ok: false, problem: "not_found" };
}
