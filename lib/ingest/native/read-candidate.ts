// One candidate of a native run (its task directory and trial directories) read into the rows the
// database gets. Runs in a reader thread (read-worker.ts) or inline; it touches no database and
// no shared state, so candidates can be read in any number of threads at once.
import fs from "node:fs";
import path from "node:path";
import type { TaskInput, TrialInput } from "@/db/queries/ingest-rows";
import { readForChecks, readForSteps } from "@/lib/checks/readings";
import { measureTask, passAtK } from "@/lib/metrics";
import type { Outline } from "@/lib/metrics/outlines";
import { withTreeReuse } from "@/lib/metrics/tree-sitter";
import { sha256 } from "../content";
import { IssueList, type IngestIssue } from "../errors";
import { searchWords } from "@/lib/tasks/search";
import { parseTaskFiles, readHarborTask, searchedText, type ParsedTaskDir } from "../harbor-task";
import { readHarborTrial, type ParsedTrial } from "../harbor-trial";
import { pairsMissing, searchIndexOfText } from "../search-vector";
import { isDirectorySync, type TreeFile } from "../walk";
import { inlineTaskFiles, type InlineTask } from "../interchange-files";
import type { EvalRecord, LineageRecord } from "./schemas";

/** A candidate's lineage line: lineage.jsonl's, or a JSONL interchange line's (whose round may be
 * unknown). */
export type CandidateRecord = Pick<LineageRecord, "task_id" | "parent_id" | "operator" | "status" | "rejection_reason" | "repair_attempts" | "created_at"> & {
  round: number | null;
};

export interface CandidateJob {
  /** the run directory: the task is `tasks/<task_id>/`, its trials `trials/<task_id>/*` */
  dir: string;
  rec: CandidateRecord;
  /** line of lineage.jsonl, for issues */
  line: number;
  /** the task's files carried in a JSONL line instead (lib/ingest/interchange): no directory, no trials */
  inline?: InlineTask;
  /** the task's directory when it is not `tasks/<task_id>/` of a run (lib/ingest/task-dirs): no trials */
  taskDir?: { path: string; display: string };
  /** the task's files read from an archive (lib/ingest/release): no directory, no trials */
  tree?: { display: string; files: TreeFile[] };
  evals: EvalRecord[];
  solverModel: string | null;
  /** content hash of the task already in the database (re-import), or null */
  knownHash: string | null;
  /** trial directory names already in the database for this task */
  knownTrials: string[];
  /** keep the search text beside a vector built here (RunWriter.needsSearchText); without it,
   * a task whose vector was built here leaves its ≈ 16 kB of text behind */
  searchText: boolean;
  /** the run's pipeline declares every parent (a native run's lineage.jsonl): a task without one
   * is a seed, whose solution the checks never read. Otherwise (a release, a folder of tasks,
   * JSONL) inference may give it a parent later, so its solution is read for the checks now,
   * from the parse the metrics make anyway, and the checks after inference parse nothing. */
  lineageDeclared: boolean;
}

export interface CandidateResult {
  /** null when the task is unchanged or could not be read */
  task: TaskInput | null;
  /** already in the database with the same content */
  unchanged: boolean;
  trials: TrialInput[];
  /** this candidate's problems, to be merged into the run's list */
  issues: IngestIssue[];
  /** problems of its trials: reported, not fatal */
  warnings: IngestIssue[];
}

/**
 * What a child needs of an accepted task read before in this thread, by task id: where the
 * statements of its scripts lie (a child's scripts are parsed from the last statement they share
 * with its parent's, lib/metrics/outlines) and its word pairs (a child lists only the pairs its
 * parent lacks, search-vector.ts). Children come a round after their parents, and read-run.ts
 * sends a child to its parent's thread; a round of accepted tasks is ≈ 2,500 at paper scale,
 * ≈ 1,250 a thread.
 */
interface KeptParent {
  outlines: Outline[];
  /** null until its search index is built, or when the database builds its vector */
  pairs: Int32Array | null;
}
const parents = new Map<string, KeptParent>();
const PARENTS_KEPT = 3072;

function keepParent(taskId: string, outlines: Outline[]): void {
  parents.set(taskId, { outlines, pairs: null });
  if (parents.size > PARENTS_KEPT) {
    const oldest = parents.keys().next().value;
    if (oldest !== undefined) parents.delete(oldest);
  }
}

/** Forget the kept outlines: an import read in the calling thread (a server upload) leaves
 * nothing behind. */
export function forgetParents(): void {
  parents.clear();
}

/** How many accepted tasks' outlines this thread keeps (tests). */
export function keptParents(): number {
  return parents.size;
}

export function contentHashOf(files: { path: string; stored: { hash: string } }[]): string {
  const lines = files.map((f) => `${f.path}\u0000${f.stored.hash}`).sort();
  return sha256(lines.join("\n"));
}

export async function readCandidate(job: CandidateJob): Promise<CandidateResult> {
  const { rec, line } = job;
  const issues = new IssueList();
  let parsed: ParsedTaskDir;
  if (job.inline) {
    parsed = parseTaskFiles(inlineTaskFiles(job.inline, issues), job.inline.display, issues);
  } else if (job.tree) {
    // A reader thread receives the bytes as plain Uint8Arrays (structured clone drops Buffer).
    const files = job.tree.files.map((f) => {
      const b: Uint8Array = f.bytes;
      return { rel: f.rel, bytes: Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength) };
    });
    parsed = parseTaskFiles(files, job.tree.display, issues);
  } else {
    const taskDir = job.taskDir?.path ?? path.join(job.dir, "tasks", rec.task_id);
    const display = job.taskDir?.display ?? `tasks/${rec.task_id}`;
    if (!isDirectorySync(taskDir)) {
      issues.add("lineage.jsonl", `task ${rec.task_id}: directory ${display}/ is missing`, line);
      return { task: null, unchanged: false, trials: [], issues: issues.items, warnings: [] };
    }
    parsed = readHarborTask(taskDir, display, issues);
  }
  const contentHash = contentHashOf(parsed.files);
  let task: TaskInput | null = null;
  if (job.knownHash !== contentHash) {
    // The metrics and what the checks and the step summaries read come from the same parses (a
    // second reader of a file reads the first one's tree), each script parsed from where it stops
    // repeating its parent's. Only accepted tasks are ever checked; any task can be a side of a diff.
    const kept = rec.parent_id === null ? undefined : parents.get(rec.parent_id);
    const earlier = kept?.outlines;
    const { metrics, readings } = await withTreeReuse(
      async () => {
        const files = checkFiles(parsed);
        const metrics = await measureTask(parsed.texts);
        const forChecks = rec.status === "accepted" ? await readForChecks(files, { solution: rec.parent_id !== null || !job.lineageDeclared }) : [];
        return { metrics, readings: [...forChecks, ...(await readForSteps(files))] };
      },
      {
        earlier,
        // Every script the readers read, the files' texts with glued lines repaired too
        // (lib/metrics/shell-glue): a child repeating a glued line is repaired the same way, and
        // its repaired text then resumes from the parent's instead of from the glue.
        keep: rec.status === "accepted" ? (outlines) => keepParent(rec.task_id, outlines) : undefined,
      },
    );
    const searched = searchedText(parsed.texts);
    const index = searchIndexOfText(searched);
    const vector = index?.vector ?? null;
    const self = index && rec.status === "accepted" ? parents.get(rec.task_id) : undefined;
    if (self) self.pairs = index?.pairs ?? null;
    // Only the pairs its parent lacks, when the parent's are known here (read in this import).
    const parentPairs = kept?.pairs;
    const pairs = index && (parentPairs ? pairsMissing(index.pairs, parentPairs) : index.pairs);
    const headline = job.evals.find((e) => e.model === job.solverModel) ?? job.evals[0];
    task = {
      row: {
        extId: rec.task_id,
        parentExtId: rec.parent_id,
        round: rec.round,
        operator: rec.operator ?? null,
        status: rec.status,
        rejectionReason: rec.rejection_reason ?? null,
        repairAttempts: rec.repair_attempts ?? 0,
        createdAt: rec.created_at ?? null,
        name: parsed.name,
        category: parsed.category,
        declaredDifficulty: parsed.difficulty,
        contentHash,
        metadata: parsed.config,
        ...metrics,
        evalModel: headline?.model ?? null,
        evalK: headline?.k ?? null,
        evalN: headline?.n ?? null,
        evalSuccesses: headline?.successes ?? null,
        passAtK: headline ? passAtK(headline.n, headline.successes, headline.k) : null,
        passAt1: headline ? passAtK(headline.n, headline.successes, 1) : null,
        meanReward: headline?.mean_reward ?? null,
      },
      searchText: vector === null || job.searchText ? searchWords(searched) : null,
      searchVector: vector,
      searchPairs: pairs ? Array.from(pairs) : null,
      searchPairsFrom: pairs && parentPairs ? rec.parent_id : null,
      files: parsed.files,
      // As JSON text: one string to hand to the writer, stored as it is (db/queries/ingest-blobs).
      readings: readings.map((r) => ({ hash: r.hash, reader: r.reader, json: JSON.stringify(r.reading) })),
      evals: job.evals.map((e) => ({ model: e.model, k: e.k, n: e.n, successes: e.successes, meanReward: e.mean_reward ?? null })),
    };
  }
  const warnings = new IssueList();
  const trials = job.inline || job.taskDir || job.tree ? [] : readTrials(job, contentHash, warnings);
  return { task, unchanged: task === null, trials, issues: issues.items, warnings: warnings.items };
}

/** The task's text files as the checks see them (path, blob hash, text). */
function checkFiles(parsed: { files: { path: string; stored: { hash: string } }[]; texts: Map<string, string> }): { path: string; hash: string; text: string }[] {
  const out: { path: string; hash: string; text: string }[] = [];
  for (const f of parsed.files) {
    const text = parsed.texts.get(f.path);
    if (text !== undefined) out.push({ path: f.path, hash: f.stored.hash, text });
  }
  return out;
}

function readTrials(job: CandidateJob, contentHash: string, warnings: IssueList): TrialInput[] {
  const taskId = job.rec.task_id;
  const trialsDir = path.join(job.dir, "trials", taskId);
  if (!isDirectorySync(trialsDir)) return [];
  const known = new Set(job.knownTrials);
  const out: TrialInput[] = [];
  const names = fs
    .readdirSync(trialsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !known.has(d.name))
    .map((d) => d.name)
    .sort();
  for (const name of names) {
    const t = readHarborTrial(path.join(trialsDir, name), `trials/${taskId}/${name}`, warnings);
    if (!t) continue;
    out.push(trialInput(t, taskId, name, contentHash, "run"));
  }
  return out;
}

/** The rows of one parsed trial for the task `taskExtId`. */
export function trialInput(t: ParsedTrial, taskExtId: string, extId: string, contentHash: string | null, source: string): TrialInput {
  return {
    taskExtId,
    extId,
    row: {
      check: t.check,
      agentName: t.agentName,
      modelName: t.modelName,
      reward: t.reward,
      rewards: t.rewards,
      exceptionType: t.exceptionType,
      exceptionMessage: t.exceptionMessage,
      taskChecksum: t.taskChecksum,
      contentHash,
      startedAt: t.startedAt,
      finishedAt: t.finishedAt,
      phases: t.phases,
      problems: t.problems.length > 0 ? t.problems : null,
      source,
    },
    tests: t.tests,
    logs: t.logs,
  };
}
