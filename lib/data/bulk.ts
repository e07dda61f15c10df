// The data layer for bulk decisions: a reviewer or an admin (or a token with one of those roles)
// previews and applies them; the filter arrives canonical (lib/api/bulk-schemas.ts).
import { getDb } from "@/db/client";
import * as q from "@/db/queries/bulk-review";
import { authorize, type Actor } from "@/lib/auth/actor";
import type { RejectReason, ReviewDecision } from "@/lib/domain";
import type { TaskFilter } from "@/lib/tasks/filter";

export type { BulkDecisionResult } from "@/db/queries/bulk-review";

export async function previewBulk(actor: Actor | null, filter: TaskFilter, search: string) {
  authorize(actor, "review");
  return q.previewBulk(await getDb(), filter, search);
}

export interface BulkDecision {
  filter: TaskFilter;
  search: string;
  decision: ReviewDecision;
  reason?: RejectReason;
  note?: string;
  expected_count: number;
  idempotency_key: string;
}

/** Applies to exactly the `expected_count` tasks matching now, or to none (the new count answers). */
export async function applyBulkDecision(actor: Actor | null, input: BulkDecision) {
  const reviewer = authorize(actor, "review");
  return q.applyBulkDecision(
    await getDb(),
    {
      filter: input.filter,
      search: input.search,
      decision: input.decision,
      reason: input.reason ?? null,
      note: input.note ? input.note : null,
      expectedCount: input.expected_count,
      idempotencyKey: input.idempotency_key,
    },
    reviewer,
  );
}
