// What a validation trial says, judged against what its check expects (browser-safe).
import type { CheckKind } from "@/lib/domain";

export type Verdict = "as-expected" | "unexpected" | "infra-error" | "no-reward" | "agent";

/** A reward counts as full from this value (rewards are fractions of 1). */
const FULL = 1 - 1e-9;

/** What each check expects of the verifier's reward. */
export const EXPECTATION: Record<CheckKind, string> = {
  oracle: "full reward",
  repeat: "full reward",
  nop: "zero reward",
  "parent-solution": "zero reward",
  agent: "no expectation (a model run)",
};

/**
 * A null reward with an exception is the sandbox failing (build, timeout, missing reward file),
 * not the verifier judging: it is told apart from a verdict. A null reward without an exception
 * means the verifier wrote nothing.
 */
export function verdictOf(check: CheckKind, reward: number | null, exceptionType: string | null): Verdict {
  if (reward === null) return exceptionType ? "infra-error" : "no-reward";
  if (check === "agent") return "agent";
  const full = reward >= FULL;
  if (check === "oracle" || check === "repeat") return full ? "as-expected" : "unexpected";
  return reward === 0 ? "as-expected" : "unexpected";
}

export const VERDICT_LABEL: Record<Verdict, string> = {
  "as-expected": "as expected",
  unexpected: "unexpected",
  "infra-error": "infrastructure error",
  "no-reward": "no reward",
  agent: "model run",
};

/** Failing tests first, then errors, then the rest in their order. */
export function testOrder(status: string): number {
  if (status === "failed") return 0;
  if (status === "error") return 1;
  if (status === "passed") return 3;
  return 2;
}
