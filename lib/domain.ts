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
