// Helpers the rules share: which trials speak about the task's current content, and evidence.
import type { CheckKind } from "@/lib/domain";
import type { FlagEvidence } from "@/lib/flags/types";
import type { CheckTrial, CheckTrialTest, RuleInput } from "../types";

/** A reward counts as full from this value (rewards are fractions of 1), as lib/trials/verdict. */
export const FULL = 1 - 1e-9;

/** Trials of the given checks that ran against the task's current content (or did not say). */
export function currentTrials(input: RuleInput, ...checks: CheckKind[]): CheckTrial[] {
  return input.trials.filter((t) => checks.includes(t.check) && (t.contentHash === null || t.contentHash === input.task.contentHash));
}

const byStatus = (t: CheckTrial, ...statuses: string[]): CheckTrialTest | undefined => t.tests.find((x) => statuses.includes(x.status));

/** Evidence pointing at a trial, at the given test's log line when it has one. */
export function trialEvidence(t: CheckTrial, test?: CheckTrialTest, excerpt?: string): FlagEvidence {
  const e: FlagEvidence = { trial_id: t.id };
  // A verifier log a reviewer can read before ctrf.json, which is one line of JSON.
  const log = test?.logName ?? t.logs.find((l) => /test-stdout|verifier/.test(l) && !/ctrf/.test(l)) ?? t.logs.find((l) => /ctrf/.test(l)) ?? t.logs[0];
  if (log) e.log = log;
  if (test?.logName && test.logLine !== null) e.log_line = test.logLine + 1;
  if (test) e.test = test.name;
  const ex = excerpt ?? test?.message ?? undefined;
  if (ex) e.excerpt = ex.slice(0, 300);
  return e;
}

export const failingTest = (t: CheckTrial): CheckTrialTest | undefined => byStatus(t, "failed", "error");
export const passingTest = (t: CheckTrial): CheckTrialTest | undefined => byStatus(t, "passed");

export const fmtReward = (r: number): string => (Number.isInteger(r) ? String(r) : r.toFixed(4).replace(/0+$/, ""));

/** A pytest node id (`tests/test_x.py::test_a`) or a bare name, reduced to what the file names. */
export function testKey(name: string): string {
  const parts = name.split("::");
  return parts.length > 1 ? parts.slice(1).join("::") : name;
}

/** Whether two tasks hold the same bytes at every path the predicate selects. */
export function sameFiles(a: RuleInput["task"], b: RuleInput["task"], select: (path: string) => boolean): boolean {
  const pa = [...a.files.keys()].filter(select);
  const pb = [...b.files.keys()].filter(select);
  if (pa.length !== pb.length) return false;
  return pa.every((p) => b.files.get(p)?.hash === a.files.get(p)?.hash);
}

export const isSolutionFile = (p: string): boolean => p.startsWith("solution/");
export const isTestsFile = (p: string): boolean => p.startsWith("tests/");
