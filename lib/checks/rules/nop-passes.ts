// nop-passes: the verifier rewards doing nothing.
import type { Finding } from "@/lib/flags/types";
import type { RuleInput } from "../types";
import { currentTrials, fmtReward, passingTest, trialEvidence } from "./common";

export function nopPasses(input: RuleInput): Finding[] {
  const t = currentTrials(input, "nop").find((x) => x.reward !== null && x.reward > 0);
  if (!t) return [];
  const test = passingTest(t);
  const passed = t.tests.filter((x) => x.status === "passed").length;
  return [
    {
      rule: "nop-passes",
      taskId: input.task.id,
      severity: "high",
      message: `With nothing done (${t.extId}) the verifier still gave reward ${fmtReward(t.reward ?? 0)}${t.tests.length > 0 ? ` (${passed} of ${t.tests.length} tests passed)` : ""}: it rewards an empty attempt.`,
      evidence: trialEvidence(t, test),
    },
  ];
}
