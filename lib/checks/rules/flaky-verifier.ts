// flaky-verifier: repeated validations of the same content disagree.
import type { Finding } from "@/lib/flags/types";
import type { CheckTrial, RuleInput } from "../types";
import { failingTest, fmtReward, FULL, trialEvidence } from "./common";

export function flakyVerifier(input: RuleInput): Finding[] {
  // The reference solution's runs (oracle and its repeats), grouped by the content they ran on.
  const groups = new Map<string, CheckTrial[]>();
  for (const t of input.trials) {
    if ((t.check !== "oracle" && t.check !== "repeat") || t.reward === null) continue;
    const hash = t.contentHash ?? input.task.contentHash;
    if (hash !== input.task.contentHash) continue;
    const list = groups.get(hash) ?? [];
    list.push(t);
    groups.set(hash, list);
  }
  for (const runs of groups.values()) {
    const full = runs.filter((t) => (t.reward ?? 0) >= FULL);
    const short = runs.filter((t) => (t.reward ?? 0) < FULL);
    const rewards = new Set(runs.map((t) => t.reward));
    if (runs.length < 2 || rewards.size < 2) continue;
    const bad = short[0] ?? runs[0]!;
    const good = full[0] ?? runs.find((t) => t.reward !== bad.reward) ?? runs[1]!;
    const test = failingTest(bad);
    return [
      {
        rule: "flaky-verifier",
        taskId: input.task.id,
        severity: "medium",
        message: `The same solution on the same content got reward ${fmtReward(good.reward ?? 0)} in ${good.extId} and ${fmtReward(bad.reward ?? 0)} in ${bad.extId}${test ? ` (${test.name} failed)` : ""}: the verifier does not judge consistently.`,
        evidence: trialEvidence(bad, test),
      },
    ];
  }
  return [];
}
