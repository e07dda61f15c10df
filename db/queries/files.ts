// Whole file sets of tasks, for diffs: two tasks' files in one query each, contents shared by hash.
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { blobs, taskFiles } from "../schema";
import type { TaskFileContent } from "./tasks";

/** Every file of a task with its content, by path. Binary files come base64-encoded. */
export async function getTaskFileSet(db: Db, id: number): Promise<Map<string, TaskFileContent>> {
  const rows = await db
    .select({ path: taskFiles.path, size: taskFiles.size, hash: taskFiles.blobHash, encoding: blobs.encoding, content: blobs.content })
    .from(taskFiles)
    .innerJoin(blobs, eq(blobs.hash, taskFiles.blobHash))
    .where(eq(taskFiles.taskId, id))
    .orderBy(asc(taskFiles.path));
  return new Map(rows.map((r) => [r.path, r]));
}

/** The file lists (path, size, hash — no content) of several tasks, for cheap change counts. */
export async function getFileLists(db: Db, ids: number[]): Promise<Map<number, { path: string; size: number; hash: string }[]>> {
  const out = new Map<number, { path: string; size: number; hash: string }[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .select({ taskId: taskFiles.taskId, path: taskFiles.path, size: taskFiles.size, hash: taskFiles.blobHash })
    .from(taskFiles)
    .where(inArray(taskFiles.taskId, ids))
    .orderBy(asc(taskFiles.path));
  for (const r of rows) out.get(r.taskId)?.push({ path: r.path, size: r.size, hash: r.hash });
  return out;
}
