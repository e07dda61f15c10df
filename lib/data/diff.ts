// Which two tasks a diff compares, and their files as text. Every read goes through lib/data/read
// (which checks the role); this module only decides the pair and its orientation.
import type { Actor } from "@/lib/auth/actor";
import type { TaskDetailJson } from "@/lib/api/types";
import type { TaskFiles } from "@/lib/diff";
import { getLineage, getTask, getTaskFileSet } from "./read";

export interface DiffPair {
  task: TaskDetailJson;
  against: TaskDetailJson;
  /** The older side: the ancestor when the two are related; otherwise `against`. */
  from: TaskDetailJson;
  to: TaskDetailJson;
  relation: "ancestor" | "descendant" | "unrelated";
}

export type PairResult = { ok: true; pair: DiffPair } | { ok: false; reason: "task" | "against" | "no-parent" };

/** `against` omitted: the parent. A descendant as `against` is shown as task → descendant. */
export async function resolveDiffPair(actor: Actor | null, id: number, againstId: number | null): Promise<PairResult> {
  const task = await getTask(actor, id);
  if (!task) return { ok: false, reason: "task" };
  const otherId = againstId ?? task.parent_id;
  if (otherId === null) return { ok: false, reason: "no-parent" };
  const [against, lineage] = await Promise.all([getTask(actor, otherId), getLineage(actor, id, {})]);
  if (!against) return { ok: false, reason: "against" };
  if (lineage?.ancestors.some((a) => a.id === against.id)) return { ok: true, pair: { task, against, from: against, to: task, relation: "ancestor" } };
  const other = await getLineage(actor, against.id, {});
  if (other?.ancestors.some((a) => a.id === task.id)) return { ok: true, pair: { task, against, from: task, to: against, relation: "descendant" } };
  return { ok: true, pair: { task, against, from: against, to: task, relation: "unrelated" } };
}

/** A task's files as `{path: text}`; a binary file stands in as one descriptive line. */
export async function loadTaskTexts(actor: Actor | null, id: number): Promise<{ files: TaskFiles; binary: Set<string> }> {
  const set = await getTaskFileSet(actor, id);
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  const binary = new Set<string>();
  for (const [path, f] of set) {
    if (f.encoding === "utf8") files[path] = f.content;
    else {
      binary.add(path);
      files[path] = `(binary file, ${f.size} bytes, sha256 ${f.hash})\n`;
    }
  }
  return { files, binary };
}
