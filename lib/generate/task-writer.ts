// Writes one Harbor task directory under tasks/<task_id>/ and returns what trials need.
import { createHash } from "node:crypto";
import path from "node:path";
import { renderDockerfile, renderInstruction, renderSolve, renderTaskToml, renderTests, type TestLayout } from "./render";
import type { TaskContent } from "./types";
import type { TreeWriter } from "./writer";

export interface WrittenTask {
  checksum: string;
  layout: TestLayout;
}

export function writeTask(w: TreeWriter, taskId: string, c: TaskContent): WrittenTask {
  const rel = path.join("tasks", taskId);
  const dir = w.dir(rel);
  w.dir(path.join(rel, "environment"));
  w.dir(path.join(rel, "solution"));
  w.dir(path.join(rel, "tests"));
  const layout = renderTests(c);
  const files: [string, string][] = [
    ["instruction.md", renderInstruction(c)],
    ["task.toml", renderTaskToml(c, taskId)],
    ["environment/Dockerfile", renderDockerfile(c)],
    ...c.family.fixtures.map((f): [string, string] => [`environment/${f.src}`, f.content]),
    ["solution/solve.sh", renderSolve(c)],
    ["tests/test.sh", c.testSh],
    ["tests/test_outputs.py", layout.text],
  ];
  // Harbor-style checksum over the task's files in path order.
  const hash = createHash("sha256");
  for (const [name, text] of files.slice().sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    hash.update(name);
    hash.update("\0");
    hash.update(text);
    w.file(path.join(dir, name), text);
  }
  return { checksum: hash.digest("hex"), layout };
}
