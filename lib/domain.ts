// Enumerations of the domain, plain constants (no drizzle), safe to import in the browser.
export const TASK_STATUSES = ["accepted", "rejected"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** How the round statistics and the task filter name a rejection without a recorded reason. */
export const NO_REASON = "(none)";

export const REVIEW_STATES = ["unreviewed", "accepted", "rejected", "needs-changes", "skipped"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_DECISIONS = ["accept", "reject", "needs-changes", "skip"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

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
