// no-reward: the verifier crashed or wrote no reward.
import type { Finding } from "@/lib/flags/types";
import type { CheckTrial, RuleInput } from "../types";
import { currentTrials, trialEvidence } from "./common";

/** A null reward the verifier is to blame for: no exception at all (it wrote nothing), or an
 * exception about the reward or the verifier itself. Timeouts and build or agent failures are
 * the sandbox's, not the verifier's. */
export function verifierWroteNoReward(t: CheckTrial): boolean {
  if (t.reward !== null) return false;
  const type = t.exceptionType ?? "";
  if (type === "") return true;
  if (/timeout|timed ?out|cancel/i.test(type)) return false;
  return /reward|verifier|parse|ctrf/i.test(type);
}

export function noReward(input: RuleInput): Finding[] {
  const trials = currentTrials(input, "oracle", "repeat", "nop", "parent-solution", "agent").filter(verifierWroteNoReward);
  const t = trials.find((x) => x.check === "oracle") ?? trials[0];
  if (!t) return [];
  const what = t.exceptionType ? `${t.exceptionType}${t.exceptionMessage ? `: ${t.exceptionMessage.slice(0, 160)}` : ""}` : "no reward and no error";
  return [
    {
      rule: "no-reward",
      taskId: input.task.id,
      severity: "high",
      message: `The verifier produced no reward in ${trials.length} trial(s), e.g. ${t.extId} (${what}): the task cannot be scored.`,
      evidence: { ...trialEvidence(t, undefined, t.exceptionMessage ?? t.exceptionType ?? undefined) },
    },
  ];
}
