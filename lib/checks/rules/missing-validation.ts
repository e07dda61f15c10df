// missing-validation: an accepted task has no oracle validation at all.
import type { Finding } from "@/lib/flags/types";
import type { RuleInput } from "../types";

export function missingValidation(input: RuleInput): Finding[] {
  // A run imported without any trials says nothing about its tasks' validation.
  if (input.task.status !== "accepted" || !input.runHasValidation) return [];
  if (input.trials.some((t) => t.check === "oracle")) return [];
  return [
    {
      rule: "missing-validation",
      taskId: input.task.id,
      severity: "medium",
      message:
        input.trials.length === 0
          ? "The task was accepted without any validation trial: its reference solution never ran against its verifier."
          : `The task was accepted without an oracle run (it has ${input.trials.length} other trial(s)): its reference solution never ran against its verifier.`,
      evidence: { file: "solution/solve.sh" },
    },
  ];
}
