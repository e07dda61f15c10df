// Query factory and the write for review decisions (app/api/v1/tasks/[id]/reviews).
import { queryOptions } from "@tanstack/react-query";
import type { NewReview } from "@/lib/api/review-schemas";
import type { ReviewJson, ReviewStateJson } from "@/lib/api/types";
import { ApiError, fetchJson, sendJson } from "./fetch-json";

export const reviewKeys = {
  history: (taskId: number) => ["reviews", taskId] as const,
};

export function reviewsQuery(taskId: number) {
  return queryOptions({
    queryKey: reviewKeys.history(taskId),
    queryFn: ({ signal }) => fetchJson<{ items: ReviewJson[] }>(`/api/v1/tasks/${taskId}/reviews`, signal),
  });
}

export function postReview(taskId: number, review: NewReview & { base_version: number }) {
  return sendJson<ReviewStateJson>("POST", `/api/v1/tasks/${taskId}/reviews`, review);
}

/** The newer state a 409 carries, or null for any other error. */
export function conflictState(err: unknown): ReviewStateJson | null {
  if (!(err instanceof ApiError) || err.status !== 409 || err.code !== "conflict") return null;
  const d = err.details;
  return typeof d === "object" && d !== null && "version" in d && "review" in d ? (d as ReviewStateJson) : null;
}
