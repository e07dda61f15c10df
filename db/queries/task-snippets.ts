// Where a search matched, for the rows of one task-table page: each task's searched files read
// once (the page's tasks only), the best line picked in lib/tasks/snippets.ts.
import { and, inArray, or, eq, like } from "drizzle-orm";
import type { SnippetsJson } from "@/lib/api/types";
import { findSnippet } from "@/lib/tasks/snippets";
import type { Db } from "../client";
import { blobs, taskFiles } from "../schema";

/** A page of the task table is at most this many rows (lib/tasks/filter.ts's limit). */
export const MAX_SNIPPET_TASKS = 500;

export async function taskSnippets(db: Db, ids: number[], q: string): Promise<SnippetsJson> {
  const wanted = [...new Set(ids)].slice(0, MAX_SNIPPET_TASKS);
  if (wanted.length === 0) return { items: [] };
  const rows = await db
    .select({ taskId: taskFiles.taskId, path: taskFiles.path, encoding: blobs.encoding, content: blobs.content })
    .from(taskFiles)
    .innerJoin(blobs, eq(blobs.hash, taskFiles.blobHash))
    .where(
      // lib/tasks/search.ts's isSearchedFile
      and(
        inArray(taskFiles.taskId, wanted),
        eq(blobs.encoding, "utf8"),
        or(
          eq(taskFiles.path, "instruction.md"),
          like(taskFiles.path, "solution/%"),
          like(taskFiles.path, "tests/%"),
          eq(taskFiles.path, "solution.sh"),
          eq(taskFiles.path, "run-tests.sh"),
        ),
      ),
    );
  const byTask = new Map<number, { path: string; text: string }[]>();
  for (const r of rows) {
    const list = byTask.get(r.taskId) ?? [];
    list.push({ path: r.path, text: r.content });
    byTask.set(r.taskId, list);
  }
  const items: SnippetsJson["items"] = [];
  for (const id of wanted) {
    const s = findSnippet(byTask.get(id) ?? [], q);
    if (s) items.push({ task: id, path: s.path, line: s.line, text: s.text, marks: s.marks });
  }
  return { items };
}
