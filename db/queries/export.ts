// The tasks a task-table filter matches, with their files, for an export (lib/export). The set is
// fixed by one statement at the start; the tasks then travel in batches, so an export of a whole
// paper-scale run never holds more than a batch of file contents.
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import type { ExportFileContent, ExportTask } from "@/lib/export/record";
import type { TaskFilter } from "@/lib/tasks/filter";
import { execRows, type Db } from "../client";
import { blobs, runs, taskFiles, tasks } from "../schema";
import { recordAudit } from "./audit";
import { planTextSearch } from "./task-search";
import { taskFilterWhere } from "./tasks";

export const EXPORT_ACTION = "export";

/**
 * Ids of the matching tasks in the order an export writes them (by run, round, then id), and the
 * export's audit row (who, which filter, which format, how many tasks), in one transaction.
 */
export async function startExport(db: Db, filter: TaskFilter, audit: { actor: Actor; search: string; format: string }): Promise<number[]> {
  const where = taskFilterWhere(filter) ?? sql`true`;
  return db.transaction(async (tx) => {
    const q = tx as unknown as Db;
    if (filter.q) await planTextSearch(q);
    const rows = await execRows<{ id: number }>(q, sql`SELECT ${tasks.id} AS id FROM ${tasks} WHERE ${where} ORDER BY ${tasks.runId}, ${tasks.round} NULLS FIRST, ${tasks.id}`);
    const ids = rows.map((r) => Number(r.id));
    const { actor, search, format } = audit;
    await recordAudit(q, { actorId: actor.userId, actorLabel: actor.label, action: EXPORT_ACTION, targetType: "tasks", targetId: search, details: { filter: search, format, count: ids.length } });
    return ids;
  });
}

/** The tasks of `ids` (in that order) with every file's content; a task deleted since is left out. */
export async function exportBatch(db: Db, ids: number[]): Promise<{ task: ExportTask; files: ExportFileContent[] }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: tasks.id,
      extId: tasks.extId,
      run: runs.name,
      parentExtId: tasks.parentExtId,
      round: tasks.round,
      depth: tasks.depth,
      operator: tasks.operator,
      status: tasks.status,
      rejectionReason: tasks.rejectionReason,
      repairAttempts: tasks.repairAttempts,
      createdAt: tasks.createdAt,
      category: tasks.category,
      declaredDifficulty: tasks.declaredDifficulty,
      contentHash: tasks.contentHash,
      version: tasks.version,
      reviewState: tasks.reviewState,
      openFlags: tasks.openFlags,
      solutionLines: tasks.solutionLines,
      commands: tasks.commands,
      distinctTools: tasks.distinctTools,
      instructionWords: tasks.instructionWords,
      verifierTests: tasks.verifierTests,
      evalModel: tasks.evalModel,
      evalK: tasks.evalK,
      evalN: tasks.evalN,
      evalSuccesses: tasks.evalSuccesses,
      passAtK: tasks.passAtK,
      meanReward: tasks.meanReward,
    })
    .from(tasks)
    .innerJoin(runs, eq(runs.id, tasks.runId))
    .where(inArray(tasks.id, ids));
  const files = await db
    .select({ taskId: taskFiles.taskId, path: taskFiles.path, hash: taskFiles.blobHash, size: taskFiles.size, encoding: blobs.encoding, content: blobs.content })
    .from(taskFiles)
    .innerJoin(blobs, eq(blobs.hash, taskFiles.blobHash))
    .where(inArray(taskFiles.taskId, ids))
    .orderBy(asc(taskFiles.taskId), asc(taskFiles.path));
  const byTask = new Map<number, ExportFileContent[]>();
  for (const f of files) {
    const list = byTask.get(f.taskId) ?? [];
    list.push({ path: f.path, hash: f.hash, size: f.size, encoding: f.encoding, content: f.content });
    byTask.set(f.taskId, list);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const task = byId.get(id);
    return task ? [{ task, files: byTask.get(id) ?? [] }] : [];
  });
}
