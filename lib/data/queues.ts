// The data layer for review queues: anyone who reads sees queues and their progress; a reviewer
// (or an admin, or a token with one of those roles) makes queues and works them. Checked here.
import { getDb } from "@/db/client";
import { getMemberState } from "@/db/queries/queue-members";
import * as reservations from "@/db/queries/queue-reservations";
import * as q from "@/db/queries/queues";
import type { QueueDiffSideJson, QueueTaskJson } from "@/lib/api/types";
import { authorize, type Actor } from "@/lib/auth/actor";
import { diffFiles } from "@/lib/diff";
import { buildDiffPayload } from "@/lib/diff/payload";
import { stepSummary } from "@/lib/diff/summary";
import type { TaskFilter } from "@/lib/tasks/filter";
import { loadStepReadings, loadTaskTexts, resolveDiffPair, stepReadingsOf } from "./diff";
import { getTask, getTaskFile } from "./read";
import { listTaskTrials } from "./trials";

export { storedFilter } from "@/db/queries/queues";

export async function listQueues(actor: Actor | null, opts: { archived?: boolean } = {}) {
  authorize(actor, "read");
  return q.listQueues(await getDb(), opts);
}

export async function getQueue(actor: Actor | null, id: number) {
  const reader = authorize(actor, "read");
  return q.getQueue(await getDb(), id, reader);
}

export async function createQueue(actor: Actor | null, input: { name: string; filter: TaskFilter; reservationMinutes?: number }) {
  const reviewer = authorize(actor, "review");
  return q.createQueue(await getDb(), input, reviewer);
}

/** `null` when there is no such queue, or it is archived. */
export async function addToQueue(actor: Actor | null, id: number, source: q.QueueSource | { refresh: true }) {
  const reviewer = authorize(actor, "review");
  const db = await getDb();
  return "refresh" in source ? q.refreshQueue(db, id, reviewer) : q.addToQueue(db, id, source, reviewer);
}

export async function nextInQueue(actor: Actor | null, id: number, opts: { prefetch?: boolean } = {}) {
  const reviewer = authorize(actor, "review");
  return reservations.nextInQueue(await getDb(), id, reviewer, opts);
}

export async function releaseReservation(actor: Actor | null, id: number, opts: { taskId?: number; forgetSkips?: boolean } = {}) {
  const reviewer = authorize(actor, "review");
  return reservations.releaseReservation(await getDb(), id, reviewer, opts);
}

export async function skipInQueue(actor: Actor | null, id: number, taskId: number) {
  const reviewer = authorize(actor, "review");
  return reservations.skipInQueue(await getDb(), id, taskId, reviewer);
}

export async function setQueueArchived(actor: Actor | null, id: number, archived: boolean) {
  const reviewer = authorize(actor, "review");
  return q.setQueueArchived(await getDb(), id, archived, reviewer);
}

const INSTRUCTION = "instruction.md";

export const diffSide = (t: QueueDiffSideJson): QueueDiffSideJson => ({ id: t.id, task_id: t.task_id, round: t.round, operator: t.operator });

/** The review screen's answer for one member, from its parts (here and in lib/review/member.ts). */
export function queueTaskAnswer(
  queueId: number,
  parts: { task: QueueTaskJson["task"]; instruction: { encoding: string; content: string } | null | undefined; trials: QueueTaskJson["trials"] | null | undefined; diff: QueueTaskJson["diff"] },
  member: { reservedBy: QueueTaskJson["reserved_by"]; done: boolean },
): QueueTaskJson {
  return {
    queue_id: queueId,
    task: parts.task,
    instruction: parts.instruction && parts.instruction.encoding === "utf8" ? parts.instruction.content : null,
    trials: parts.trials ?? [],
    diff: parts.diff,
    reserved_by: member.reservedBy,
    done: member.done,
  };
}

/**
 * Everything the review screen shows for one member, in one answer, so the next task can be
 * fetched ahead in one request: the task, its instruction, its trials and the step from its parent
 * (its summary and changed files; the highlighted file diffs, the costly part, only with `files`).
 */
export async function loadQueueTask(actor: Actor | null, queueId: number, taskId: number, opts: { files?: boolean } = {}): Promise<QueueTaskJson | null> {
  authorize(actor, "read");
  const member = await getMemberState(await getDb(), queueId, taskId);
  if (!member) return null;
  const [task, instruction, trials, pair] = await Promise.all([
    getTask(actor, taskId),
    getTaskFile(actor, taskId, INSTRUCTION),
    listTaskTrials(actor, taskId),
    resolveDiffPair(actor, taskId, null),
  ]);
  if (!task) return null;
  let diff: QueueTaskJson["diff"] = null;
  if (pair.ok) {
    const { from, to } = pair.pair;
    const [a, b, known] = await Promise.all([loadTaskTexts(actor, from.id), loadTaskTexts(actor, to.id), loadStepReadings(actor, [from.id, to.id])]);
    const [files, summary] = await Promise.all([
      opts.files ? buildDiffPayload(a.files, b.files, new Set([...a.binary, ...b.binary])) : null,
      stepSummary(a.files, b.files, stepReadingsOf(known, a, b)),
    ]);
    const changes = diffFiles(a.files, b.files, { context: 0 }).files.flatMap((f) =>
      f.status === "unchanged" ? [] : [{ path: f.path, status: f.status, added: f.added, removed: f.removed }],
    );
    diff = { from: diffSide(from), to: diffSide(to), summary, changes, files: files ? files.filter((f) => f.status !== "unchanged") : null };
  }
  return queueTaskAnswer(queueId, { task, instruction, trials, diff }, member);
}
