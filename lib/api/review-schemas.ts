// Request bodies of `POST /api/v1/tasks/{id}/reviews` and of a decision made in a queue
// (`POST /api/v1/queues/{id}/decisions`): strict, so an unknown field is an error.
import { z } from "zod";
import { REJECT_REASONS, REVIEW_DECISIONS, type RejectReason, type ReviewDecision } from "@/lib/domain";

const reviewFields = {
  decision: z.enum(REVIEW_DECISIONS),
  reason: z.enum(REJECT_REASONS).optional(),
  note: z.string().trim().max(10_000).optional(),
  /** The task version the reviewer saw; optional here so that its absence is a 428, not a 400. */
  base_version: z.number().int().positive().max(2_147_483_647).optional(),
};

/** A rejection has a reason, and only a rejection has one. */
function withReasonRules<T extends z.ZodType<{ decision: ReviewDecision; reason?: RejectReason }>>(schema: T): T {
  return schema
    .refine((r) => r.decision !== "reject" || r.reason !== undefined, { message: "a rejection needs a reason", path: ["reason"] })
    .refine((r) => r.decision === "reject" || r.reason === undefined, { message: "only a rejection has a reason", path: ["reason"] });
}

export const newReviewSchema = withReasonRules(z.strictObject(reviewFields));

export type NewReview = z.infer<typeof newReviewSchema>;

const id = z.number().int().positive().max(2_147_483_647);

export const queueDecisionSchema = withReasonRules(
  z.strictObject({
    ...reviewFields,
    /** The task decided on (the one the caller holds, or any other: the decision is the task's). */
    task_id: id,
    /** Tasks whose member data the caller already has: not sent again. */
    have: z.array(id).max(10).optional(),
    /** Whether to send the queue's progress too. */
    progress: z.boolean().optional(),
  }),
);
