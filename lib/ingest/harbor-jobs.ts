// Harbor job and trial directories (FORMATS.md §3) ingested into a run already in the database:
// a single job, a folder of jobs, the `trials/` of a native run, or one trial. Each trial is
// matched to a task of the run by name, path or checksum; what matches nothing is reported.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { RunWriter } from "@/db/queries/ingest";
import { tasks, trials } from "@/db/schema";
import type { IssueList } from "./errors";
import { readHarborTrial } from "./harbor-trial";
import { safeJsonParse } from "./jsonl";
import { trialInput } from "./native/read-candidate";

export interface TrialDirRef {
  dir: string;
  /** path relative to the imported directory, for messages */
  display: string;
  /** the task id a `trials/<task_id>/<trial>` layout names */
  taskHint: string | null;
  /** the job the trial belongs to (its directory name), or null */
  job: string | null;
}

function hasResult(dir: string): boolean {
  return fs.existsSync(path.join(dir, "result.json"));
}

function subdirs(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

const isJob = (dir: string) => hasResult(dir) && subdirs(dir).some((s) => hasResult(path.join(dir, s)));

/** The trial directories under `root`, or null when it is none of the Harbor layouts. */
export function findTrialDirs(root: string): TrialDirRef[] | null {
  const jobTrials = (dir: string, prefix: string): TrialDirRef[] =>
    subdirs(dir).map((s) => ({ dir: path.join(dir, s), display: `${prefix}${s}`, taskHint: null, job: path.basename(dir) }));
  if (isJob(root)) return jobTrials(root, "");
  if (hasResult(root)) return [{ dir: root, display: path.basename(root), taskHint: null, job: null }];
  const children = subdirs(root);
  const jobs = children.filter((c) => isJob(path.join(root, c)));
  if (jobs.length > 0) return jobs.flatMap((j) => jobTrials(path.join(root, j), `${j}/`));
  // trials/<task_id>/<trial>/: a folder per task holding its trial directories
  const perTask = children.filter((c) => subdirs(path.join(root, c)).some((t) => hasResult(path.join(root, c, t))));
  if (perTask.length === 0) return null;
  return perTask.flatMap((task) =>
    subdirs(path.join(root, task)).map((t) => ({ dir: path.join(root, task, t), display: `${task}/${t}`, taskHint: task, job: null })),
  );
}

const configSchema = z.looseObject({ task: z.looseObject({ path: z.string().max(4000).nullish() }).nullish() });

/** config.json's task path, when the trial has a readable one. */
function configTaskPath(dir: string): string | null {
  try {
    const text = fs.readFileSync(path.join(dir, "config.json"), "utf8");
    const parsed = configSchema.safeParse(safeJsonParse(text));
    return parsed.success ? (parsed.data.task?.path ?? null) : null;
  } catch {
    return null;
  }
}

/** How trials find their task in a run: ids, names from task.toml, checksums seen on earlier trials. */
export class TaskMatcher {
  private constructor(
    private readonly byExt: Map<string, string>,
    private readonly byName: Map<string, string | null>,
    private readonly byChecksum: Map<string, string>,
  ) {}

  static async load(db: Db, runId: number): Promise<TaskMatcher> {
    const rows = await db.select({ extId: tasks.extId, name: tasks.name }).from(tasks).where(eq(tasks.runId, runId));
    const byExt = new Map(rows.map((r) => [r.extId, r.extId]));
    const byName = new Map<string, string | null>();
    // A name two tasks share identifies neither.
    for (const r of rows) if (r.name) byName.set(r.name, byName.has(r.name) ? null : r.extId);
    const sums = await db
      .select({ checksum: trials.taskChecksum, extId: tasks.extId })
      .from(trials)
      .innerJoin(tasks, eq(tasks.id, trials.taskId))
      .where(and(eq(trials.runId, runId), isNotNull(trials.taskChecksum)));
    const byChecksum = new Map<string, string>();
    for (const s of sums) if (s.checksum) byChecksum.set(s.checksum, s.extId);
    return new TaskMatcher(byExt, byName, byChecksum);
  }

  match(ref: TrialDirRef, taskName: string | null, checksum: string | null): string | null {
    const viaPath = configTaskPath(ref.dir);
    const candidates = [ref.taskHint, taskName, viaPath ? path.basename(viaPath) : null];
    for (const c of candidates) if (c && this.byExt.has(c)) return c;
    if (taskName) {
      const named = this.byName.get(taskName);
      if (named) return named;
    }
    return checksum ? (this.byChecksum.get(checksum) ?? null) : null;
  }
}

export interface HarborCounts {
  trialsSeen: number;
  unmatched: number;
}

/** Reads every trial under `root` into `writer`; problems and unmatched trials go to `warnings`. */
export async function writeHarborTrials(
  db: Db,
  root: string,
  refs: TrialDirRef[],
  writer: RunWriter,
  warnings: IssueList,
  onProgress?: (p: { done: number; total: number }) => void,
): Promise<HarborCounts> {
  const matcher = await TaskMatcher.load(db, writer.runId);
  const counts: HarborCounts = { trialsSeen: 0, unmatched: 0 };
  for (const [i, ref] of refs.entries()) {
    const parsed = readHarborTrial(ref.dir, ref.display, warnings);
    onProgress?.({ done: i + 1, total: refs.length });
    if (!parsed) continue;
    counts.trialsSeen++;
    const task = matcher.match(ref, parsed.taskName, parsed.taskChecksum);
    if (task === null) {
      counts.unmatched++;
      const said = [parsed.taskName && `task_name ${parsed.taskName}`, parsed.taskChecksum && `task_checksum ${parsed.taskChecksum}`].filter(Boolean).join(", ");
      warnings.add(ref.display, `matches no task of the run (${said || "no task_name or task_checksum"}); not imported`);
      continue;
    }
    const extId = parsed.extId || path.basename(ref.dir);
    await writer.addTrial(trialInput(parsed, task, extId, writer.contentHashOf(task), ref.job ?? path.basename(root)));
  }
  await writer.flush();
  return counts;
}
