// Request body of `POST /api/v1/tasks/{id}/reviews`: strict, so an unknown field is an error.
import { z } from "zod";
import { REJECT_REASONS, REVIEW_DECISIONS } from "@/lib/domain";

export const newReviewSchema = z
  .strictObject({
    decision: z.enum(REVIEW_DECISIONS),
    reason: z.enum(REJECT_REASONS).optional(),
    note: z.string().trim().max(10_000).optional(),
    /** The task version the reviewer saw; optional here so that its absence is a 428, not a 400. */
    base_version: z.number().int().positive().max(2_147_483_647).optional(),
  })
  .refine((r) => r.decision !== "reject" || r.reason !== undefined, { message: "a rejection needs a reason", path: ["reason"] })
  .refine((r) => r.decision === "reject" || r.reason === undefined, { message: "only a rejection has a reason", path: ["reason"] });

export type NewReview = z.infer<typeof newReviewSchema>;
