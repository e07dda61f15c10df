// Review decisions: an append-only history per task, and the task's review state derived from
// it. `tasks.version` guards every write, so two reviewers deciding at once cannot both win.
import { and, desc, eq, sql } from "drizzle-orm";
import type { ReviewJson, ReviewStateJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { DECISION_STATE, type RejectReason, type ReviewDecision } from "@/lib/domain";
import { execRows, type Db } from "../client";
import { reviews, tasks, users } from "../schema";

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
  // A user by their email now; a token (no user) by its label when it decided (migration 0014).
  by: sql<string | null>`coalesce(${users.email}, ${reviews.actorLabel})`,
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
 *
 * One statement (one round trip, its own transaction unless the caller has one): the update, the
 * review and its audit row are data-modifying parts of one query, which commit or fail together.
 */
export async function recordReview(db: Db, input: NewReviewRow, actor: Actor): Promise<RecordReviewResult> {
  const [row] = await execRows<ReviewRow & { version: number; review: ReviewStateJson["review"] }>(
    db,
    sql`WITH t AS (
          UPDATE tasks SET review_state = ${DECISION_STATE[input.decision]}, version = version + 1
          WHERE id = ${input.taskId} AND version = ${input.baseVersion}
          RETURNING id, version, review_state, content_hash
        ), r AS (
          INSERT INTO reviews (task_id, user_id, actor_label, decision, reason, note, base_version, content_hash)
          SELECT t.id, ${actor.userId}::text, ${actor.label}::text, ${input.decision}::text, ${input.reason}::text, ${input.note}::text, ${input.baseVersion}::int, t.content_hash FROM t
          RETURNING id, task_id, decision, reason, note, base_version, content_hash, created_at
        ), a AS (
          INSERT INTO audit_log (actor_id, actor_label, action, target_type, target_id, details)
          SELECT ${actor.userId}::text, ${actor.label}::text, 'review', 'task', ${String(input.taskId)}::text,
            jsonb_build_object('review_id', r.id, 'decision', r.decision, 'reason', r.reason, 'base_version', r.base_version,
                               'version', t.version, 'content_hash', t.content_hash)
          FROM r, t
        )
        SELECT r.id, r.task_id AS "taskId", r.decision, r.reason, r.note, r.base_version AS "baseVersion", r.content_hash AS "contentHash",
               r.created_at AS "createdAt", t.version, t.review_state AS review
        FROM t, r`,
    { prepared: true },
  );
  const outcome: ReviewStateJson | null = row
    ? {
        task_id: input.taskId,
        version: Number(row.version),
        review: row.review,
        content_hash: row.contentHash,
        last_review: toJson({ ...row, id: Number(row.id), taskId: Number(row.taskId), baseVersion: Number(row.baseVersion), by: actor.label }),
      }
    : null;
  if (outcome) return { ok: true, state: outcome };
  const current = await getReviewState(db, input.taskId);
  return current ? { ok: false, problem: "conflict", current } : { ok: false, problem: "not_found" };
}
