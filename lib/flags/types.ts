// The contract between the consistency checks (lib/checks), the flags store (db/queries/flags.ts)
// and the pages that open a flag at its evidence. Plain types, safe to import in the browser.
import type { FlagRule } from "@/lib/domain";

export const FLAG_STATUSES = ["open", "resolved", "dismissed"] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

export const FLAG_SEVERITIES = ["low", "medium", "high"] as const;
export type FlagSeverity = (typeof FLAG_SEVERITIES)[number];

export const FLAG_SOURCES = ["auto", "manual"] as const;
export type FlagSource = (typeof FLAG_SOURCES)[number];

/** A manual flag's rule id; automatic flags carry a FlagRule. */
export const MANUAL_RULE = "manual";

/**
 * Where a reviewer should look. Every field is optional; a flag shows what it has.
 * Lines are 1-based. `file` is a task file path as stored (e.g. "tests/test_outputs.py").
 */
export interface FlagEvidence {
  /** trials.id of the trial that shows the problem */
  trial_id?: number;
  /** a log of that trial, by its stored name (e.g. "verifier/test-stdout.txt") */
  log?: string;
  log_line?: number;
  /** a file of the flagged task, and a line in it */
  file?: string;
  line?: number;
  /** the other task of a comparison (the parent, usually): the evidence is a diff against it */
  compare_task_id?: number;
  /** a test of the verifier (pytest node name or function name) */
  test?: string;
  /** a short excerpt: the line itself, the assertion, the missing path */
  excerpt?: string;
}

/** What a rule reports for one task; the store turns it into a flag on the task's content hash. */
export interface Finding {
  rule: FlagRule;
  /** tasks.id */
  taskId: number;
  severity: FlagSeverity;
  /** one or two sentences a reviewer understands without knowing the rule's code */
  message: string;
  evidence: FlagEvidence;
}
