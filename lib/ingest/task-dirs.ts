// Harbor / Terminal-Bench 2 task directories (FORMATS.md §1), and Terminal-Bench 1 ones (§2) → one
// run: a folder of tasks, or one task. They come without lineage (each task is a root) and without trials (Harbor results for
// them import afterwards: `ingest JOBS --run NAME`).
import fs from "node:fs";
import path from "node:path";
import type { RunWriter } from "@/db/queries/ingest";
import type { IssueList } from "./errors";
import type { CandidateJob } from "./native/read-candidate";
import { streamCandidates, type ReadProgress } from "./native/read-run";
import { taskIdSchema } from "./native/schemas";

export interface TaskDirRef {
  /** the task's id: its directory's name */
  id: string;
  dir: string;
}

/** A Harbor task directory holds its instruction or its configuration at the top; a Terminal-Bench 1
 * one its task.yaml (FORMATS.md §2, mapped onto the Harbor layout as it is read). */
export function isTaskDir(dir: string): boolean {
  return ["instruction.md", "task.toml", "task.yaml"].some((f) => {
    try {
      return fs.lstatSync(path.join(dir, f)).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * The tasks under `root`: `root` itself when it is one, else its sub-directories that are (sorted
 * by name); null when there are none. Other entries are listed in `skipped`, for a warning.
 */
export function findTaskDirs(root: string): { tasks: TaskDirRef[]; skipped: string[] } | null {
  if (isTaskDir(root)) return { tasks: [{ id: path.basename(root), dir: root }], skipped: [] };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return null;
  }
  const tasks: TaskDirRef[] = [];
  const skipped: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.name.startsWith(".")) continue;
    const dir = path.join(root, e.name);
    if (e.isDirectory() && isTaskDir(dir)) tasks.push({ id: e.name, dir });
    else skipped.push(e.name);
  }
  return tasks.length > 0 ? { tasks, skipped } : null;
}

/** Streams the tasks into `writer`; a directory name that cannot be a task id is an issue. */
export async function writeTaskDirs(
  root: string,
  found: { tasks: TaskDirRef[]; skipped: string[] },
  writer: RunWriter,
  issues: IssueList,
  warnings: IssueList,
  opts: { onProgress?: (p: ReadProgress) => void; threads: number },
): Promise<void> {
  const single = found.tasks.length === 1 && found.tasks[0]?.dir === root;
  const display = (t: TaskDirRef) => (single ? t.id : `${path.basename(root)}/${t.id}`);
  if (found.skipped.length > 0) {
    const names = found.skipped.slice(0, 10).join(", ") + (found.skipped.length > 10 ? `, … (${found.skipped.length} in all)` : "");
    warnings.add(path.basename(root), `not task directories (no instruction.md, task.toml or task.yaml), not imported: ${names}`);
  }
  async function* jobs(): AsyncGenerator<CandidateJob> {
    for (const t of found.tasks) {
      const id = taskIdSchema.safeParse(t.id);
      if (!id.success) {
        issues.add(display(t), "the directory's name cannot be a task id (at most 200 characters, no control characters)");
        continue;
      }
      yield {
        dir: root,
        taskDir: { path: t.dir, display: display(t) },
        rec: { task_id: t.id, parent_id: null, round: null, status: "accepted", operator: null, rejection_reason: null, repair_attempts: 0, created_at: null },
        line: 0,
        evals: [],
        solverModel: null,
        knownHash: writer.knownHash(t.id),
        knownTrials: [],
        searchText: writer.needsSearchText,
        lineageDeclared: false,
      };
    }
  }
  await streamCandidates(jobs(), writer, issues, { ...opts, total: found.tasks.length, warnings });
  if (issues.size === 0) await writer.finish();
}
