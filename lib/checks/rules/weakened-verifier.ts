// weakened-verifier: the child has fewer tests or assertions than its parent.
import type { Finding } from "@/lib/flags/types";
import type { RuleInput } from "../types";

export function weakenedVerifier(input: RuleInput): Finding[] {
  const { task, parent } = input;
  if (!parent) return [];
  const mine = task.verifier;
  const theirs = parent.verifier;
  // Without a readable test module on either side there is nothing to compare.
  if (theirs.tests.length === 0 || mine.pythonFiles.length === 0) return [];
  if (mine.tests.length >= theirs.tests.length && mine.asserts >= theirs.asserts) return [];
  const present = new Set(mine.tests.map((t) => t.name));
  const dropped = theirs.tests.filter((t) => !present.has(t.name));
  const first = dropped[0];
  const what =
    mine.tests.length < theirs.tests.length
      ? `${theirs.tests.length - mine.tests.length} fewer test(s) (${mine.tests.length} vs ${theirs.tests.length})`
      : `fewer assertions (${mine.asserts} vs ${theirs.asserts})`;
  return [
    {
      rule: "weakened-verifier",
      taskId: task.id,
      severity: "medium",
      message: `The verifier has ${what} than the parent's${dropped.length > 0 ? `; gone: ${dropped.slice(0, 3).map((t) => t.name).join(", ")}${dropped.length > 3 ? ", …" : ""}` : ""}: a requirement of the parent is no longer checked.`,
      evidence: first
        ? { file: first.file, test: first.name, excerpt: `def ${first.name.split("::").pop()}(…) at line ${first.line} of the parent`, compare_task_id: parent.id }
        : { file: mine.pythonFiles[0], compare_task_id: parent.id },
    },
  ];
}
