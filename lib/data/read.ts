// The data layer for reads: every function takes the actor and is refused unless the role may
// read. Pages, route handlers and exports call these, never the queries directly.
import { getDb } from "@/db/client";
import { loadStepReadings } from "@/db/queries/checks";
import * as files from "@/db/queries/files";
import * as lineage from "@/db/queries/lineage";
import * as runs from "@/db/queries/runs";
import * as stats from "@/db/queries/stats";
import { taskSnippets } from "@/db/queries/task-snippets";
import * as tasks from "@/db/queries/tasks";
import { authorize, type Actor } from "@/lib/auth/actor";
import type { TaskFilter } from "@/lib/tasks/filter";

async function readDb(actor: Actor | null) {
  authorize(actor, "read");
  return getDb();
}

export async function listRuns(actor: Actor | null) {
  return runs.listRuns(await readDb(actor));
}

export async function getRunOverview(actor: Actor | null, name: string) {
  return runs.getRunOverview(await readDb(actor), name);
}

export async function getRoundStats(actor: Actor | null, run: string) {
  return stats.getRoundStats(await readDb(actor), run);
}

export async function listTasks(actor: Actor | null, filter: TaskFilter) {
  return tasks.listTasks(await readDb(actor), filter);
}

export async function getTaskSnippets(actor: Actor | null, ids: number[], q: string) {
  return taskSnippets(await readDb(actor), ids, q);
}

export async function getFacets(actor: Actor | null, run: string | undefined) {
  return tasks.getFacets(await readDb(actor), run);
}

export async function getTask(actor: Actor | null, id: number) {
  return tasks.getTask(await readDb(actor), id);
}

export async function getTaskFile(actor: Actor | null, id: number, path: string) {
  return tasks.getTaskFile(await readDb(actor), id, path);
}

export async function getLineage(actor: Actor | null, id: number, opts: lineage.LineageOptions) {
  return lineage.getLineage(await readDb(actor), id, opts);
}

export async function getPairNodes(actor: Actor | null, id: number, otherId: number | null) {
  return lineage.getPairNodes(await readDb(actor), id, otherId);
}

export async function getTaskFileSet(actor: Actor | null, id: number) {
  return files.getTaskFileSet(await readDb(actor), id);
}

export async function getStepReadings(actor: Actor | null, of: Parameters<typeof loadStepReadings>[1]) {
  return loadStepReadings(await readDb(actor), of);
}

export async function getFileLists(actor: Actor | null, ids: number[]) {
  return files.getFileLists(await readDb(actor), ids);
}
