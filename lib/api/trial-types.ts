// JSON shapes of validation trials, their log ranges and a run's validation.
import type { CheckKind } from "@/lib/domain";
import type { Verdict } from "@/lib/trials/verdict";

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
