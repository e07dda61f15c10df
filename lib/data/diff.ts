// Which two tasks a diff compares, their files as text, and everything the diff page shows. Every
// read goes through lib/data/read (which checks the role); this module decides the pair and its
// orientation.
import type { LineageJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { Readings } from "@/lib/checks/readings";
import type { TaskFiles } from "@/lib/diff";
import { buildDiffPayload } from "@/lib/diff/payload";
import type { DiffFilePayload } from "@/lib/diff/payload-types";
import type { StepReadings, StepSummary } from "@/lib/diff/summary";
import { splitFileSides, stepSummaryInThread } from "@/lib/diff/thread";
import { getLineage, getPairNodes, getStepReadings, getTaskFileSet } from "./read";

/** A side of a diff: what a header and the links around it need. */
export interface DiffTask {
  id: number;
  task_id: string;
  run: string;
  parent_id: number | null;
  round: number | null;
  operator: string | null;
  depth: number;
}

export interface DiffPair {
  task: DiffTask;
  against: DiffTask;
  /** The older side: the ancestor when the two are related; otherwise `against`. */
  from: DiffTask;
  to: DiffTask;
  relation: "ancestor" | "descendant" | "unrelated";
}

export type PairResult = { ok: true; pair: DiffPair } | { ok: false; reason: "task" | "against" | "no-parent" };

/** "/12/57/301/" names 12, 57 and 301. */
const pathNames = (path: string, id: number) => path.includes(`/${id}/`);

/** `against` omitted: the parent. A descendant as `against` is shown as task → descendant. */
export async function resolveDiffPair(actor: Actor | null, id: number, againstId: number | null): Promise<PairResult> {
  const rows = await getPairNodes(actor, id, againstId);
  const self = rows.find((r) => r.id === id);
  if (!self) return { ok: false, reason: "task" };
  const otherId = againstId ?? self.parentId;
  if (otherId === null) return { ok: false, reason: "no-parent" };
  const other = rows.find((r) => r.id === otherId);
  if (!other) return { ok: false, reason: "against" };
  const side = (r: typeof self): DiffTask => ({ id: r.id, task_id: r.extId, run: r.run, parent_id: r.parentId, round: r.round, operator: r.operator, depth: r.depth });
  const task = side(self);
  const against = side(other);
  if (self.id !== other.id && pathNames(self.path, other.id)) return { ok: true, pair: { task, against, from: against, to: task, relation: "ancestor" } };
  if (self.id !== other.id && pathNames(other.path, self.id)) return { ok: true, pair: { task, against, from: task, to: against, relation: "descendant" } };
  return { ok: true, pair: { task, against, from: against, to: task, relation: "unrelated" } };
}

export interface TaskTexts {
  files: TaskFiles;
  binary: Set<string>;
  /** every file's blob hash */
  refs: { path: string; hash: string }[];
}

/** A task's files as `{path: text}`; a binary file stands in as one descriptive line. */
export async function loadTaskTexts(actor: Actor | null, id: number): Promise<TaskTexts> {
  const set = await getTaskFileSet(actor, id);
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  const binary = new Set<string>();
  const refs: TaskTexts["refs"] = [];
  for (const [path, f] of set) {
    refs.push({ path, hash: f.hash });
    if (f.encoding === "utf8") files[path] = f.content;
    else {
      binary.add(path);
      files[path] = `(binary file, ${f.size} bytes, sha256 ${f.hash})\n`;
    }
  }
  return { files, binary, refs };
}

/**
 * What the import read of these tasks' files for step summaries (a pair, or a chain seed → task).
 * Asked by task ids, so that the query runs beside the file reads rather than after them.
 */
export async function loadStepReadings(actor: Actor | null, taskIds: readonly number[]): Promise<Readings> {
  return Readings.of(await getStepReadings(actor, { taskIds }));
}

/** Those readings as the summary of `a` → `b` takes them (lib/diff/summary). */
export const stepReadingsOf = (readings: Readings, a: TaskTexts, b: TaskTexts): StepReadings => ({ parent: readings.forSteps(a.refs), child: readings.forSteps(b.refs) });

/** The lineage the diff page offers to compare with: the path from the seed and a few levels below. */
export const PICKER_LINEAGE = { descendants: true, maxDepth: 3, limit: 300 } as const;

export type DiffView =
  | { found: false }
  | { found: true; lineage: LineageJson; pair: null }
  | { found: true; lineage: LineageJson; pair: DiffPair; files: DiffFilePayload[]; summary: StepSummary };

/**
 * Everything the diff page shows for task `id` against `againstId` (default: its parent): the
 * lineage for the picker, the pair, each file's highlighted whole-file diff and the step summary.
 * `pair: null` for a seed without `againstId`.
 */
export async function loadDiffView(actor: Actor | null, id: number, againstId: number | null): Promise<DiffView> {
  // One round trip before the files of the other side, whose id the pair query answers: the task's
  // own files and the lineage are read meanwhile.
  const pair = resolveDiffPair(actor, id, againstId);
  const [resolved, lineage, own, other, known] = await Promise.all([
    pair,
    getLineage(actor, id, PICKER_LINEAGE),
    loadTaskTexts(actor, id),
    pair.then((r) => (r.ok ? loadTaskTexts(actor, r.pair.against.id) : null)),
    pair.then((r) => (r.ok ? loadStepReadings(actor, [r.pair.from.id, r.pair.to.id]) : null)),
  ]);
  if (!lineage) return { found: false };
  if (!resolved.ok || !other || !known) return !resolved.ok && resolved.reason === "no-parent" ? { found: true, lineage, pair: null } : { found: false };
  const { from } = resolved.pair;
  const [a, b] = from.id === id ? [own, other] : [other, own];
  // The summary and the verifier's highlighting go to the diff thread first, done while this one
  // highlights the rest. Files the import read for the summary are not parsed again.
  const [summary, files] = await Promise.all([
    stepSummaryInThread(a.files, b.files, stepReadingsOf(known, a, b)),
    buildDiffPayload(a.files, b.files, new Set([...a.binary, ...b.binary]), splitFileSides),
  ]);
  return { found: true, lineage, pair: resolved.pair, files, summary };
}
