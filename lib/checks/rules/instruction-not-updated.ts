// instruction-not-updated: the verifier changed from the parent but the instruction did not.
import type { Finding } from "@/lib/flags/types";
import type { RuleInput } from "../types";
import { isTestsFile, sameFiles } from "./common";

export function instructionNotUpdated(input: RuleInput): Finding[] {
  const { task, parent } = input;
  if (!parent) return [];
  const mine = task.files.get("instruction.md");
  const theirs = parent.files.get("instruction.md");
  if (!mine || !theirs || mine.hash !== theirs.hash) return [];
  if (sameFiles(task, parent, isTestsFile)) return [];
  // Point at a test the parent does not have, when there is one.
  const old = new Set(parent.verifier.tests.map((t) => `${t.file}::${t.name}`));
  const added = task.verifier.tests.find((t) => !old.has(`${t.file}::${t.name}`));
  return [
    {
      rule: "instruction-not-updated",
      taskId: task.id,
      severity: "medium",
      message: `The verifier changed from the parent's${added ? ` (new test ${added.name})` : ""} but instruction.md is byte-identical: the new requirement is never stated.`,
      evidence: added
        ? { file: added.file, line: added.line, test: added.name, compare_task_id: parent.id }
        : { file: "instruction.md", line: 1, compare_task_id: parent.id },
    },
  ];
}
