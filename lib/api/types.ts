// JSON shapes of the API (snake_case, API.md). The client hooks and the server prefetch
// both produce exactly these, so hydrated and fetched data agree.
import type { CheckKind, ReviewDecision, ReviewState, TaskStatus } from "@/lib/domain";
import type { FlagEvidence, FlagSeverity, FlagSource, FlagStatus } from "@/lib/flags/types";
import type { DiffFilePayload } from "@/lib/diff/payload-types";
import type { StepSummary } from "@/lib/diff/summary";
import type { Verdict } from "@/lib/trials/verdict";

export interface RunJson {
  id: number;
  name: string;
  format: string;
  created_at: string | null;
  ingested_at: string;
  seeds: number;
  rounds: number;
  accepted: number;
  rejected: number;
  trials: number;
}

export interface TaskRowJson {
  id: number;
  task_id: string;
  run: string;
  parent_id: number | null;
  round: number | null;
  status: TaskStatus;
  rejection_reason: string | null;
  operator: string | null;
  category: string | null;
  review: ReviewState;
  solution_lines: number | null;
  commands: number | null;
  distinct_tools: number | null;
  instruction_words: number | null;
  verifier_tests: number | null;
  pass_at_k: number | null;
  mean_reward: number | null;
  open_flags: number;
}

export interface TaskListJson {
  items: TaskRowJson[];
  next: string | null;
  total: number;
  /** `total` is a lower bound: counting stopped at a cap (show "10,000+"). */
  total_is_estimate: boolean;
  /** Position of the first item in the whole filtered list (for "51–100 of 37,484"). */
  offset: number;
}

export interface TaskRefJson {
  id: number;
  task_id: string;
  round: number | null;
  status: TaskStatus;
  operator: string | null;
}

/** A node of a lineage tree: enough to draw it (round, operator, status, review, flags, a metric). */
export interface LineageNodeJson {
  id: number;
  task_id: string;
  parent_id: number | null;
  round: number | null;
  depth: number;
  status: TaskStatus;
  rejection_reason: string | null;
  operator: string | null;
  review: ReviewState;
  open_flags: number;
  solution_lines: number | null;
  commands: number | null;
  pass_at_k: number | null;
  /** Direct children in the database (all of them, whether or not listed here). */
  children: number;
}

export interface LineageJson {
  run: string;
  task: LineageNodeJson;
  /** From the seed down to the parent. */
  ancestors: LineageNodeJson[];
  /** Breadth first (by depth, then task id); empty unless asked for. */
  descendants: LineageNodeJson[];
  /** More descendants exist than were returned. */
  truncated: boolean;
}

export interface TaskFileJson {
  path: string;
  size: number;
  hash: string;
}

export interface EvalJson {
  model: string;
  k: number;
  n: number;
  successes: number;
  mean_reward: number | null;
  pass_at_k: number | null;
}

export interface TaskDetailJson extends TaskRowJson {
  name: string | null;
  declared_difficulty: string | null;
  repair_attempts: number;
  created_at: string | null;
  content_hash: string;
  version: number;
  depth: number;
  root_id: number | null;
  verifier_asserts: number | null;
  pass_at_1: number | null;
  metadata: Record<string, unknown>;
  parent: TaskRefJson | null;
  children: TaskRefJson[];
  files: TaskFileJson[];
  evals: EvalJson[];
  trial_count: number;
  /** The latest review decision (the whole history: `GET /api/v1/tasks/{id}/reviews`). */
  last_review: ReviewJson | null;
}

export interface RoundStatJson {
  round: number;
  candidates: number;
  accepted: number;
  rejected: number;
  median_solution_lines: number | null;
  median_commands: number | null;
  median_distinct_tools: number | null;
  median_instruction_words: number | null;
  median_verifier_tests: number | null;
  pass_at_k: number | null;
  mean_reward: number | null;
}

export interface RunRoundsJson {
  run: string;
  solver: { model: string | null; k: number | null };
  rounds: RoundStatJson[];
}

export interface ImportJson {
  id: number;
  run: string;
  format: string;
  source_path: string;
  status: "running" | "done" | "unchanged" | "failed";
  summary: Record<string, unknown>;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

export interface RunOverviewJson {
  run: RunJson;
  rounds: RoundStatJson[];
  solver: { model: string | null; k: number | null };
  rejection_reasons: { reason: string; count: number }[];
  review_states: { review: ReviewState; count: number }[];
  last_import: ImportJson | null;
}

export interface FacetsJson {
  operators: string[];
  categories: string[];
  max_round: number;
}

export interface ApiErrorJson {
  error: { code: string; message: string; details?: unknown };
}

/** Measured metrics charted per round (lib/rounds/metrics.ts names and labels them). */
export type RoundMetric = "solution_lines" | "commands" | "distinct_tools" | "instruction_words" | "verifier_tests";

/** percentile_cont over the accepted tasks of a round that have the metric; n counts them. */
export interface PercentilesJson {
  n: number;
  p10: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  p90: number | null;
}

/** One round of the Rounds page: the RoundStatJson fields plus rates, mixes and distributions. */
export interface RoundDetailJson extends RoundStatJson {
  /** accepted / candidates. */
  yield: number | null;
  /** Candidates with at least one oracle trial (check = "oracle"). */
  validated: number;
  /** Candidates whose every oracle trial has reward ≥ 1 (and at least one exists). */
  validation_passed: number;
  /** validation_passed / validated: the share of sandbox-validated candidates whose oracle passed. */
  validation_rate: number | null;
  /** Accepted tasks with a solver evaluation: the n behind pass_at_k and mean_reward. */
  solver_n: number;
  rejection_reasons: { reason: string; count: number }[];
  /** Candidates and accepted tasks per rewrite operator (null: seeds). */
  operators: { operator: string | null; candidates: number; accepted: number }[];
  metrics: Record<RoundMetric, PercentilesJson>;
}

/** A slice of a run: every field narrows the tasks counted. */
export interface RoundSliceJson {
  category?: string;
  operator?: string;
  /** Database id of the seed whose family (lineage tree) is counted. */
  root?: number;
  review?: ReviewState;
}

export interface RunRoundDetailJson {
  run: string;
  solver: { model: string | null; k: number | null };
  slice: RoundSliceJson;
  /** Changes whenever an import or a review changes the run's numbers (the cache key). */
  data_version: string;
  rounds: RoundDetailJson[];
}

/** A seed and the size of its family, for the seed-family slice. */
export interface SeedFamilyJson {
  id: number;
  task_id: string;
  tasks: number;
}

// Validation trials (GET /api/v1/tasks/{id}/trials, /trials/{id}) and log ranges.
export interface TrialTestJson {
  name: string;
  status: string;
  duration_ms: number | null;
  message: string | null;
  log_name: string | null;
  log_line: number | null;
}

export interface TrialLogJson {
  name: string;
  lines: number;
  bytes: number;
}

export type TrialPhases = Record<string, { started_at: string | null; finished_at: string | null }>;

export interface TrialJson {
  id: number;
  ext_id: string;
  task_id: number | null;
  check: CheckKind;
  verdict: Verdict;
  agent_name: string | null;
  model_name: string | null;
  reward: number | null;
  rewards: Record<string, number> | null;
  exception_type: string | null;
  exception_message: string | null;
  started_at: string | null;
  finished_at: string | null;
  phases: TrialPhases;
  problems: string[];
  source: string | null;
  content_hash: string | null;
  tests: TrialTestJson[];
  logs: TrialLogJson[];
}

export interface TrialDetailJson extends TrialJson {
  task_ext_id: string | null;
  run: string;
}

export interface LogRangeJson {
  name: string;
  total_lines: number;
  bytes: number;
  from: number;
  to: number;
  lines: string[];
  /** lines cut at LINE_CAP characters, with their full length */
  clipped: { line: number; chars: number }[];
}

// A run's validation (the Validation page).
/** Trials of one round and check kind with one kind of outcome (see runValidation). */
export interface ValidationCell {
  round: number;
  check: CheckKind;
  verdict: Verdict;
  trials: number;
}

export interface RecurringException {
  exception_type: string;
  trials: number;
  tasks: number;
  /** one message, for a first look */
  example: string | null;
  /** the task of the first trial that raised it */
  example_task_id: number;
}

export interface UnvalidatedTask {
  id: number;
  task_id: string;
  round: number;
  status: string;
  trials: number;
  /** the last infrastructure error among its trials, if any */
  exception_type: string | null;
}

export interface RunValidationJson {
  run: string;
  cells: ValidationCell[];
  exceptions: RecurringException[];
  unvalidated: UnvalidatedTask[];
  unvalidated_total: number;
}

/** A saved baseline as listed: what it was computed for, by whom, and its size. */
export interface BaselineSummaryJson {
  id: number;
  name: string;
  /** The run whose statistics were saved (it may have changed or gone since). */
  run: string;
  slice: RoundSliceJson;
  created_by: string | null;
  created_at: string;
  rounds: number;
  candidates: number;
}

/** A baseline with its frozen statistics: the Rounds page draws them like a compared run. */
export interface BaselineJson extends BaselineSummaryJson {
  stats: RunRoundDetailJson;
}

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

/** A saved view of the task table, with the count of tasks it matches now. */
export interface SavedViewJson {
  id: number;
  name: string;
  /** The task table's query string; the view opens at `/tasks?<query>`. */
  query: string;
  shared: boolean;
  created_by: string;
  created_at: string;
  /** Whether the asking actor created it (and may rename or delete it; admins may too). */
  mine: boolean;
  /** Null when the stored query no longer parses. */
  count: number | null;
  count_is_estimate: boolean;
}

/** A flag (`GET /api/v1/flags`): an automatic finding or a reviewer's manual flag, on one content hash. */
export interface FlagJson {
  id: number;
  task_id: number;
  /** The task's id in its run (tasks.ext_id). */
  task_ext_id: string;
  run: string;
  round: number | null;
  operator: string | null;
  /** A rule of FLAG_RULES, or "manual". */
  rule: string;
  source: FlagSource;
  status: FlagStatus;
  /** An automatic flag raised on an older revision of the task: shown, never counted open. */
  outdated: boolean;
  severity: FlagSeverity;
  message: string;
  evidence: FlagEvidence;
  content_hash: string;
  created_at: string;
  created_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  resolution: string | null;
  /** Where the dashboard opens the evidence (a diff line, a file line, a log line, a trial), or the task. */
  evidence_href: string;
}

export interface FlagListJson {
  items: FlagJson[];
  next: string | null;
}

/** Flags of one rule by their status; `open` leaves outdated flags out. */
export interface FlagRuleCountJson {
  rule: string;
  open: number;
  outdated: number;
  resolved: number;
  dismissed: number;
}

/** One cell of a rule × round or rule × operator table (open flags, outdated left out). */
export interface FlagCellJson {
  rule: string;
  /** A round number, or an operator name ("" for seeds, which have none). */
  key: string;
  count: number;
}

export interface FlagCountsJson {
  run: string | null;
  rules: FlagRuleCountJson[];
  by_round: FlagCellJson[];
  by_operator: FlagCellJson[];
}

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
