// JSON shapes of review decisions: one task's history and state, and bulk decisions over a filter.
import type { ReviewDecision, ReviewState } from "@/lib/domain";

/** One decision of a task's append-only review history. */
export interface ReviewJson {
  id: number;
  task_id: number;
  decision: ReviewDecision;
  reason: string | null;
  note: string | null;
  /** The email of the person, or `token "<name>"` for a script. */
  by: string | null;
  at: string;
  /** The task version the decision was based on (the task is at base_version + 1 after it). */
  base_version: number;
  /** The content the reviewer looked at; differs from the task's when it was re-imported since. */
  content_hash: string;
}

/** A task's review state: what a decision answers, and what a stale one is told in its 409. */
export interface ReviewStateJson {
  task_id: number;
  version: number;
  review: ReviewState;
  content_hash: string;
  last_review: ReviewJson | null;
}

/** What a bulk decision would touch (`POST /api/v1/tasks/bulk` with `dry_run: true`). */
export interface BulkPreviewJson {
  /** The canonical query string of the filter (paging and sort dropped). */
  filter: string;
  /** Exactly how many tasks match now: send it back as `expected_count`. */
  count: number;
  /** How the matching tasks are reviewed now. */
  by_review: { review: ReviewState; count: number }[];
  /** A few of them, lowest id first. */
  sample: { id: number; task_id: string }[];
}

/** A bulk decision applied (201), or replayed for a repeated idempotency key (200). */
export interface BulkResultJson {
  /** The audit row of the bulk action; each task's own audit row names it as `bulk_id`. */
  bulk_id: number;
  filter: string;
  count: number;
  decision: ReviewDecision;
  reason: string | null;
  /** The review state the tasks are in now. */
  review: ReviewState;
  /** True when this idempotency key had already been applied: nothing new was written. */
  replayed: boolean;
}
