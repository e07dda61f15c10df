// parent-solution-passes: the parent's reference solution already satisfies the child's verifier.
import type { Finding } from "@/lib/flags/types";
import type { RuleInput } from "../types";
import { currentTrials, FULL, trialEvidence } from "./common";

export function parentSolutionPasses(input: RuleInput): Finding[] {
  const t = currentTrials(input, "parent-solution").find((x) => x.reward !== null && x.reward >= FULL);
  if (!t) return [];
  const skipped = t.tests.filter((x) => x.status === "skipped");
  // The evidence is a line of the log: a skipped test where the log says so, else the last test
  // the log shows passing (pytest's short summary names no test on a SKIPPED line, so a skipped
  // test often has no line of its own).
  const located = (x: (typeof t.tests)[number]) => x.logName !== null && x.logLine !== null;
  const test = skipped.find(located) ?? t.tests.findLast((x) => x.status === "passed" && located(x)) ?? skipped[0] ?? t.tests[t.tests.length - 1];
  const evidence = trialEvidence(t, test);
  if (input.task.parentId !== null) evidence.compare_task_id = input.task.parentId;
  return [
    {
      rule: "parent-solution-passes",
      taskId: input.task.id,
      severity: "high",
      message: `The parent's solution earns full reward on this task's verifier (${t.extId})${skipped.length > 0 ? `, with ${skipped.length} test(s) skipped` : ""}: nothing checks the new step.`,
      evidence,
    },
  ];
}
