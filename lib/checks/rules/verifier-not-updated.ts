// verifier-not-updated: the solution changed from the parent but the verifier files did not.
import type { Finding } from "@/lib/flags/types";
import { diffText } from "@/lib/diff/text";
import type { RuleInput } from "../types";
import { isSolutionFile, isTestsFile, sameFiles } from "./common";

/** The first line of the child's solve.sh that the parent's does not have (1-based), or null. */
export function firstAddedLine(parent: string | undefined, child: string | undefined): { line: number; text: string } | null {
  if (child === undefined) return null;
  const d = diffText(parent ?? null, child, { context: 0 });
  for (const h of d.hunks) for (const l of h.lines) if (l.op === "add" && l.new_no !== null && l.text.trim() !== "") return { line: l.new_no, text: l.text.trim() };
  return null;
}

export function verifierNotUpdated(input: RuleInput): Finding[] {
  const { task, parent } = input;
  if (!parent) return [];
  if (![...task.files.keys()].some(isTestsFile)) return [];
  if (sameFiles(task, parent, isSolutionFile) || !sameFiles(task, parent, isTestsFile)) return [];
  const added = firstAddedLine(parent.files.get("solution/solve.sh")?.text, task.files.get("solution/solve.sh")?.text);
  const file = task.files.has("solution/solve.sh") ? "solution/solve.sh" : [...task.files.keys()].find(isSolutionFile);
  return [
    {
      rule: "verifier-not-updated",
      taskId: task.id,
      severity: "high",
      message: "The reference solution changed from the parent's, but every verifier file is byte-identical to the parent's: nothing tests what the new step does.",
      evidence: { file, ...(added ? { line: added.line, excerpt: added.text.slice(0, 200) } : {}), compare_task_id: parent.id },
    },
  ];
}
