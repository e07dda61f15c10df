// The data layer for review decisions: anyone who reads sees the history, a reviewer or an admin
// (or a token with one of those roles) decides. Checked here for every call.
import { getDb } from "@/db/client";
import * as q from "@/db/queries/reviews";
import { authorize, type Actor } from "@/lib/auth/actor";
import type { NewReview } from "@/lib/api/review-schemas";

export type { RecordReviewResult } from "@/db/queries/reviews";

export async function listReviews(actor: Actor | null, taskId: number) {
  authorize(actor, "read");
  return q.listReviews(await getDb(), taskId);
}

export async function getReviewState(actor: Actor | null, taskId: number) {
  authorize(actor, "read");
  return q.getReviewState(await getDb(), taskId);
}

/** A decision based on `base_version`; a stale one changes nothing and answers the current state. */
export async function recordReview(actor: Actor | null, taskId: number, review: NewReview & { base_version: number }) {
  const reviewer = authorize(actor, "review");
  const note = review.note ? review.note : null;
  return q.recordReview(
    await getDb(),
    { taskId, decision: review.decision, reason: review.reason ?? null, note, baseVersion: review.base_version },
    reviewer,
  );
}
