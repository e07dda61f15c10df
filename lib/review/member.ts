// A queue member's screen data (the review screen and the API's queue member route): what
// lib/data/queues loadQueueTask answers, made cheaper for many reviewers at once. The role is
// checked here, as in lib/data. The member, its task's detail, last review, instruction and parent's
// file list come in one query (not getTask's seven, nor its search vector), its trials in another; the step from the parent is kept by content (./step-cache) and,
// when it must be computed, only the files it reads are fetched: the changed ones and those the
// summary parses, never the unchanged rest of both tasks.
import { getDb } from "@/db/client";
import { loadStepReadings } from "@/db/queries/checks";
import * as q from "@/db/queries/queue-members";
import { trialsOfTask } from "@/db/queries/trials";
import type { QueueTaskJson } from "@/lib/api/types";
import { authorize, type Actor } from "@/lib/auth/actor";
import { Readings } from "@/lib/checks/readings";
import { diffSide, loadQueueTask, queueTaskAnswer } from "@/lib/data/queues";
import { diffFiles, type TaskFiles } from "@/lib/diff";
import { INSTRUCTION_PATH, isTestFile, SOLUTION_PATH, stepSummary } from "@/lib/diff/summary";
import { cachedStep, stepKey, type FileRef, type StepData } from "./step-cache";

type Listed = FileRef & { size: number };


/** The files the summary reads whatever changed (lib/diff/summary). */
const readBySummary = (path: string) => path === SOLUTION_PATH || path === INSTRUCTION_PATH || isTestFile(path);

/** Paths whose text the step needs: every changed file (for its line counts) and the summary's. */
export function stepPaths(from: readonly Listed[], to: readonly Listed[]): Set<string> {
  const before = new Map(from.map((f) => [f.path, f.hash]));
  const after = new Map(to.map((f) => [f.path, f.hash]));
  const paths = new Set<string>();
  for (const p of new Set([...before.keys(), ...after.keys()])) if (before.get(p) !== after.get(p) || readBySummary(p)) paths.add(p);
  return paths;
}

/** Those files as `{path: text}`; a binary file stands in as one descriptive line (as lib/data/diff). */
async function texts(list: readonly Listed[], paths: ReadonlySet<string>, blobs: Map<string, { binary: boolean; content: string }>): Promise<TaskFiles> {
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const f of list) {
    if (!paths.has(f.path)) continue;
    const blob = blobs.get(f.hash);
    if (!blob) throw new Error(`blob ${f.hash} of ${f.path} is missing`);
    files[f.path] = blob.binary ? `(binary file, ${f.size} bytes, sha256 ${f.hash})\n` : blob.content;
  }
  return files;
}

async function computeStep(from: readonly Listed[], to: readonly Listed[]): Promise<StepData> {
  const paths = stepPaths(from, to);
  const read = [...from, ...to].filter((f) => paths.has(f.path));
  const db = await getDb();
  // What the import read of the summary's files comes beside their texts (not parsed again).
  const [blobs, stored] = await Promise.all([
    q.getStepTexts(db, read.map((f) => f.hash)),
    loadStepReadings(db, { hashes: read.filter((f) => f.path === SOLUTION_PATH || isTestFile(f.path)).map((f) => f.hash) }),
  ]);
  const [a, b] = await Promise.all([texts(from, paths, blobs), texts(to, paths, blobs)]);
  const readings = Readings.of(stored);
  const summary = await stepSummary(a, b, { parent: readings.forSteps(from), child: readings.forSteps(to) });
  const changes = diffFiles(a, b, { context: 0 }).files.flatMap((f) =>
    f.status === "unchanged" ? [] : [{ path: f.path, status: f.status, added: f.added, removed: f.removed }],
  );
  return { summary, changes };
}

/**
 * Everything the review screen shows for one member, in one answer (the same as loadQueueTask):
 * the member, its task's detail, last review, instruction and parent's file list in one query
 * beside its trials in another; the step only when it is not cached (two more, side by side).
 * `files` (the highlighted file diffs, asked for when a reviewer opens the parent diff) goes the
 * full way of lib/data/queues.
 */
export async function loadQueueMember(actor: Actor | null, queueId: number, taskId: number, opts: { files?: boolean } = {}): Promise<QueueTaskJson | null> {
  if (opts.files) return loadQueueTask(actor, queueId, taskId, opts);
  authorize(actor, "read");
  const db = await getDb();
  const [member, trials] = await Promise.all([q.getMemberTask(db, queueId, taskId), trialsOfTask(db, taskId)]);
  if (!member) return null;
  const { task, parentFiles } = member;
  let diff: QueueTaskJson["diff"] = null;
  // A member's step is from its parent (lib/data/diff resolves the same pair for a task alone).
  if (task.parent && parentFiles) {
    const before = parentFiles;
    const after = task.files;
    const step = await cachedStep(stepKey(before, after), () => computeStep(before, after));
    diff = { from: diffSide(task.parent), to: diffSide(task), summary: step.summary, changes: step.changes, files: null };
  }
  return queueTaskAnswer(queueId, { task, instruction: member.instruction, trials, diff }, member);
}
