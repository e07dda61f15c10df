// JSON shapes of review queues: lists, progress, the reviewer's holds and a member's review screen.
import type { ReviewDecision } from "@/lib/domain";
import type { DiffFilePayload } from "@/lib/diff/payload-types";
import type { StepSummary } from "@/lib/diff/summary";
import type { TaskDetailJson } from "./task-types";
import type { TrialJson } from "./trial-types";

/** Where a review queue stands: members done (a decision after they were added) and left. */
export interface QueueProgressJson {
  total: number;
  done: number;
  left: number;
  /** Members handed to a reviewer right now (live reservations). */
  reserved: number;
  /** Done members by who made the decision that counts (the latest), most first. */
  by_reviewer: { reviewer: string; done: number }[];
}

/** A review queue in lists: its filter is the task-table query string it was made from. */
export interface QueueJson {
  id: number;
  name: string;
  filter: string;
  reservation_minutes: number;
  created_by: string | null;
  created_at: string;
  archived: boolean;
  total: number;
  done: number;
}

export interface QueueDetailJson extends QueueJson {
  progress: QueueProgressJson;
  /** The asking reviewer: decided members (oldest first, at most 200), and members they skipped. */
  mine: { done: number; history: QueueHistoryJson[]; skipped: number };
}

/** A member the asking reviewer decided: `id` is the task's database id, `task_id` the pipeline's. */
export interface QueueHistoryJson {
  id: number;
  task_id: string;
  decision: ReviewDecision;
}

/** A member handed to the asking reviewer. */
export interface QueueSlotJson {
  task_id: number;
  ext_id: string;
  position: number;
  expires_at: string;
}

/** `POST /queues/{id}/next`: the reviewer's task now, and (prefetch) the one after. */
export interface QueueNextJson {
  queue_id: number;
  current: QueueSlotJson | null;
  upcoming: QueueSlotJson | null;
  /** Members not done yet (whoever holds them). */
  left: number;
  /** Members this reviewer skipped and will not be handed again until they clear their skips. */
  skipped: number;
}

/**
 * The second line of `POST /api/v1/queues/{id}/decisions` (the first is `{decision}`, the new
 * state, as the reviews route answers it): the caller's holds after the decision (as `next?prefetch=1`),
 * the member data of those the caller did not say it has, and the queue with its progress when asked.
 */
export interface QueueDecisionFollowUpJson {
  next: QueueNextJson | null;
  members: QueueTaskJson[];
  queue: QueueDetailJson | null;
}

export interface QueueAddJson {
  added: number;
  already: number;
}

export interface QueueDiffSideJson {
  id: number;
  task_id: string;
  round: number | null;
  operator: string | null;
}

/** A queue member with everything the review screen shows, in one answer (prefetched ahead). */
export interface QueueTaskJson {
  queue_id: number;
  task: TaskDetailJson;
  /** instruction.md as text (rendered as safe markdown), or null when the task has none. */
  instruction: string | null;
  trials: TrialJson[];
  /** The step from the parent (null for a seed). */
  diff: {
    from: QueueDiffSideJson;
    to: QueueDiffSideJson;
    summary: StepSummary;
    /** Every changed file with its line counts (unchanged files left out). */
    changes: { path: string; status: "added" | "removed" | "modified"; added: number; removed: number }[];
    /** The highlighted whole-file diffs of the changed files: only with `?files=1` (they cost the most). */
    files: DiffFilePayload[] | null;
  } | null;
  /** Who holds the member now (null when nobody does). */
  reserved_by: string | null;
  done: boolean;
}
