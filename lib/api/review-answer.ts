// How the API says a decision was refused: the reviews route and a decision made in a queue.
import type { RecordReviewResult } from "@/db/queries/reviews";
import { apiError, notFound } from "./http";

/** 404 for an unknown task, 409 with the newer state (and who made it) for a stale `base_version`. */
export function refusedDecision(result: Exclude<RecordReviewResult, { ok: true }>, baseVersion: number): Response {
  if (result.problem === "not_found") return notFound("task");
  const last = result.current.last_review;
  const who = last ? ` (${last.decision} by ${last.by ?? "someone"} at ${last.at})` : "";
  return apiError(409, "conflict", `the task changed since version ${baseVersion}: it is at version ${result.current.version}${who}`, result.current);
}

/** 428: a decision must say which version it was based on. */
export const baseVersionRequired = () => apiError(428, "precondition_required", "send base_version: the task version your decision is based on");
