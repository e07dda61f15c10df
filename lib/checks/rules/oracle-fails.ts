// oracle-fails: the reference solution did not earn full reward in its own validation.
import type { Finding } from "@/lib/flags/types";
import type { RuleInput } from "../types";
import { currentTrials, failingTest, fmtReward, FULL, trialEvidence } from "./common";

export function oracleFails(input: RuleInput): Finding[] {
  const judged = currentTrials(input, "oracle").filter((t) => t.reward !== null);
  if (judged.length === 0 || judged.some((t) => (t.reward ?? 0) >= FULL)) return [];
  const t = judged[0]!;
  const test = failingTest(t);
  return [
    {
      rule: "oracle-fails",
      taskId: input.task.id,
      severity: "high",
      message: `The reference solution earned reward ${fmtReward(t.reward ?? 0)} in its oracle validation (${t.extId})${test ? `; ${test.name} failed` : ""}: the task as shipped does not pass its own verifier.`,
      evidence: trialEvidence(t, test),
    },
  ];
}
