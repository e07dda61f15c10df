// JSON shapes of runs, their rounds and imports, the Rounds page's slices and saved baselines.
import type { ReviewState } from "@/lib/domain";

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
  /** where the run's parent links come from: the pipeline, inference (C12), or nowhere yet */
  lineage: "declared" | "inferred" | "none";
}

/** `POST /api/v1/runs/{run}/lineage`: what an inference linked (or would link, with dry_run). */
export interface LineageInferenceJson {
  run: string;
  tasks: number;
  linked: number;
  roots: number;
  /** links by confidence: ≥ 0.8, 0.5–0.8, below 0.5 */
  confidence: { high: number; medium: number; low: number };
  rounds_from_depth: number;
  written: boolean;
  /** findings per rule of the checks run afterwards (null for a dry run) */
  checks: Record<string, number> | null;
  duration_ms: number;
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
