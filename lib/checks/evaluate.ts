// Runs rules over one task's input: pure, no database.
import type { Finding } from "@/lib/flags/types";
import type { RuleInput, RuleModule } from "./types";

export function evaluate(input: RuleInput, rules: readonly RuleModule[]): Finding[] {
  const out: Finding[] = [];
  for (const r of rules) {
    // One finding per rule and task: the flags store keeps one per (task, rule, content).
    const found = r.run(input);
    if (found[0]) out.push(found[0]);
  }
  return out;
}
