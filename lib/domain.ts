// Enumerations of the domain, plain constants (no drizzle), safe to import in the browser.
export const TASK_STATUSES = ["accepted", "rejected"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** How the round statistics and the task filter name a rejection without a recorded reason. */
export const NO_REASON = "(none)";

export const REVIEW_STATES = ["unreviewed", "accepted", "rejected", "needs-changes", "skipped"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_DECISIONS = ["accept", "reject", "needs-changes", "skip"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** The review state each decision leaves a task in. */
export const DECISION_STATE = {
  accept: "accepted",
  reject: "rejected",
  "needs-changes": "needs-changes",
  skip: "skipped",
} as const satisfies Record<ReviewDecision, ReviewState>;

/** Why a reviewer rejects a task; anything else goes into the free-text note. */
export const REJECT_REASONS = [
  "instruction unclear",
  "verifier too weak",
  "verifier too strict",
  "solution wrong",
  "too easy",
  "duplicate",
  "environment broken",
  "other",
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export const CHECK_KINDS = ["oracle", "nop", "parent-solution", "repeat", "agent"] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export const ROLES = ["viewer", "reviewer", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** The verifier-consistency rules of FORMATS.md § Checks. */
export const FLAG_RULES = [
  "oracle-fails",
  "nop-passes",
  "parent-solution-passes",
  "flaky-verifier",
  "verifier-not-updated",
  "instruction-not-updated",
  "untold-requirement",
  "unverified-step",
  "weakened-verifier",
  "no-reward",
  "missing-validation",
] as const;
export type FlagRule = (typeof FLAG_RULES)[number];

/**
 * How an inferred lineage link was arrived at (C12, lib/lineage/infer.ts): stored with the task
 * whose parent (or lack of one) was inferred from content rather than declared by the pipeline.
 */
export interface InferredLineage {
  /** 0–1: how much of the parent's solution the child keeps, in order, and how clearly it beats the runner-up; null for a root */
  confidence: number | null;
  /** the parent's solution lines the child's keeps, in order (0 for a root) */
  shared_lines: number;
  parent_lines: number;
  child_lines: number;
  /** the next best candidate parent, when there was one */
  runner_up: { id: string; shared_lines: number } | null;
  /** the round was not known: it is the inferred depth */
  round_from_depth: boolean;
}

/** Confidence bands of inferred links: the summary counts them, the task page colours them. */
export type ConfidenceBand = "high" | "medium" | "low";
export function confidenceBand(confidence: number): ConfidenceBand {
  return confidence >= 0.8 ? "high" : confidence >= 0.5 ? "medium" : "low";
}
