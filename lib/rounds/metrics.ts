// The metrics charted per round, in display order, with labels for menus, axes and CSV headers.
import type { RoundMetric } from "@/lib/api/types";

export const ROUND_METRICS = ["solution_lines", "commands", "distinct_tools", "instruction_words", "verifier_tests"] as const satisfies readonly RoundMetric[];

export const METRIC_LABELS: Record<RoundMetric, string> = {
  solution_lines: "Solution lines",
  commands: "Executed commands",
  distinct_tools: "Distinct tools",
  instruction_words: "Instruction words",
  verifier_tests: "Verifier tests",
};

export const PERCENTILES = [
  ["p10", 0.1],
  ["p25", 0.25],
  ["p50", 0.5],
  ["p75", 0.75],
  ["p90", 0.9],
] as const;
export type PercentileKey = (typeof PERCENTILES)[number][0];
