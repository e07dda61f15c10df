// The writes of bulk decisions and the saved-views queries (app/api/v1/tasks/bulk, app/api/v1/views).
import { queryOptions } from "@tanstack/react-query";
import type { BulkPreviewJson, BulkResultJson, SavedViewJson } from "@/lib/api/types";
import type { RejectReason, ReviewDecision } from "@/lib/domain";
import { ApiError, fetchJson, sendJson } from "./fetch-json";

export type BulkDecisionBody = { decision: ReviewDecision; reason?: RejectReason; note?: string };

export function previewBulk(filter: string, body: BulkDecisionBody) {
  return sendJson<BulkPreviewJson>("POST", "/api/v1/tasks/bulk", { filter, ...body, dry_run: true });
}

export function applyBulk(filter: string, body: BulkDecisionBody, expectedCount: number, idempotencyKey: string) {
  return sendJson<BulkResultJson>("POST", "/api/v1/tasks/bulk", { filter, ...body, expected_count: expectedCount, idempotency_key: idempotencyKey });
}

/** The fresh preview a 409 carries when the count changed, or null for any other error. */
export function changedCount(err: unknown): BulkPreviewJson | null {
  if (!(err instanceof ApiError) || err.status !== 409 || err.code !== "count_changed") return null;
  const d = err.details;
  return typeof d === "object" && d !== null && "count" in d && "by_review" in d ? (d as BulkPreviewJson) : null;
}

export const viewKeys = { all: ["views"] as const };

export function viewsQuery() {
  return queryOptions({
    queryKey: viewKeys.all,
    queryFn: ({ signal }) => fetchJson<{ items: SavedViewJson[] }>("/api/v1/views", signal),
  });
}

export function saveView(name: string, query: string) {
  return sendJson<SavedViewJson>("POST", "/api/v1/views", { name, query });
}

export function renameView(id: number, name: string) {
  return sendJson<SavedViewJson>("PATCH", `/api/v1/views/${id}`, { name });
}

export function removeView(id: number) {
  return sendJson<null>("DELETE", `/api/v1/views/${id}`);
}
