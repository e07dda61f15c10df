// What the consistency rules read: a task's text files, its parent's, its trials, and the parsed
// verifier and solution. Plain data, so that every rule is a pure function of it.
import type { CheckKind, FlagRule, TaskStatus } from "@/lib/domain";
import type { Finding } from "@/lib/flags/types";
import type { ShellAnalysis } from "./shell";
import type { VerifierAnalysis } from "./verifier";

export interface CheckFile {
  path: string;
  /** blob hash: what parses are cached by */
  hash: string;
  text: string;
}

export interface CheckTask {
  id: number;
  extId: string;
  status: TaskStatus;
  contentHash: string;
  parentId: number | null;
  /** text files by path (instruction.md, task.toml, solution/…, tests/…, environment/…) */
  files: Map<string, CheckFile>;
}

export interface CheckTrialTest {
  name: string;
  status: string;
  message: string | null;
  logName: string | null;
  /** 0-based, as trial_tests stores it */
  logLine: number | null;
}

export interface CheckTrial {
  id: number;
  extId: string;
  check: CheckKind;
  reward: number | null;
  exceptionType: string | null;
  exceptionMessage: string | null;
  /** the content hash of the task the trial ran against; null when the trial did not say */
  contentHash: string | null;
  tests: CheckTrialTest[];
  /** stored log names */
  logs: string[];
}

/** A task with what the static rules parsed out of it. */
export interface AnalysedTask extends CheckTask {
  verifier: VerifierAnalysis;
  /** the solve.sh reading, null when the task has no solution/solve.sh */
  solution: ShellAnalysis | null;
}

export interface RuleInput {
  task: AnalysedTask;
  /** null for seeds, and when the parent is not in the database */
  parent: AnalysedTask | null;
  /** the task's trials (all content revisions: rules pick those of the current content) */
  trials: CheckTrial[];
  /** whether the run holds any oracle trial: without any, missing-validation says nothing */
  runHasValidation: boolean;
}

export type Rule = (input: RuleInput) => Finding[];

export interface RuleModule {
  id: FlagRule;
  /** what the rule needs: "static" rules read files, "trials" rules read trials */
  needs: "static" | "trials" | "both";
  run: Rule;
}
