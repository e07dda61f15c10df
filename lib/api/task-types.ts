// JSON shapes of the task table, the task page, lineage trees and saved views of the table.
import type { InferredLineage, ReviewState, TaskStatus } from "@/lib/domain";
import type { ReviewJson } from "./review-types";

/** Where a search matched in one task: the line of a searched file showing the most terms, cut
 * around its first match; the matches as [start, end) in `text`. */
export interface SnippetJson {
  task: number;
  path: string;
  line: number;
  text: string;
  marks: [number, number][];
}

/** Where a search matched, for some rows of the task table (`GET /api/v1/tasks/snippets`). Tasks
 * whose match no single line shows are left out. */
export interface SnippetsJson {
  items: SnippetJson[];
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
  /** set when the parent link (or its absence) was inferred from content, not declared (C12) */
  lineage_inferred: InferredLineage | null;
  children: TaskRefJson[];
  files: TaskFileJson[];
  evals: EvalJson[];
  trial_count: number;
  /** The latest review decision (the whole history: `GET /api/v1/tasks/{id}/reviews`). */
  last_review: ReviewJson | null;
}

export interface FacetsJson {
  operators: string[];
  categories: string[];
  max_round: number;
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
