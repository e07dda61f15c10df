// Streams a native RST run directory into a RunWriter, task by task, with bounded memory.
import fs from "node:fs/promises";
import path from "node:path";
import type { RunWriter, TaskInput, TrialInput } from "@/db/queries/ingest";
import { measureTask, passAtK } from "@/lib/metrics";
import { sha256 } from "../content";
import type { IssueList } from "../errors";
import { readHarborTask, searchableText } from "../harbor-task";
import { readHarborTrial } from "../harbor-trial";
import { readJsonl } from "../jsonl";
import { mapOrdered } from "../pool";
import { isDirectory } from "../walk";
import { evalSchema, lineageSchema, type EvalRecord, type LineageRecord } from "./schemas";

const READ_AHEAD = 8;

export interface ReadProgress {
  done: number;
  total: number;
}

export function contentHashOf(files: { path: string; stored: { hash: string } }[]): string {
  const lines = files.map((f) => `${f.path}\u0000${f.stored.hash}`).sort();
  return sha256(lines.join("\n"));
}

export async function readEvals(dir: string, issues: IssueList): Promise<Map<string, EvalRecord[]>> {
  const byTask = new Map<string, EvalRecord[]>();
  const file = path.join(dir, "evals.jsonl");
  try {
    await fs.access(file);
  } catch {
    return byTask;
  }
  for await (const { value } of readJsonl(file, "evals.jsonl", evalSchema, issues)) {
    const list = byTask.get(value.task_id) ?? [];
    list.push(value);
    byTask.set(value.task_id, list);
  }
  return byTask;
}

export async function countLineage(dir: string): Promise<number> {
  const text = await fs.readFile(path.join(dir, "lineage.jsonl"), "utf8");
  let n = 0;
  for (const line of text.split("\n")) if (line.trim() !== "") n++;
  return n;
}

interface ReadTask {
  rec: LineageRecord;
  line: number;
  task: TaskInput | null;
  /** Already in the database with the same content. */
  unchanged: boolean;
  trials: TrialInput[];
}

async function readOne(dir: string, rec: LineageRecord, line: number, evals: Map<string, EvalRecord[]>, solverModel: string | null, writer: RunWriter, issues: IssueList): Promise<ReadTask> {
  const taskDir = path.join(dir, "tasks", rec.task_id);
  const display = `tasks/${rec.task_id}`;
  if (!(await isDirectory(taskDir))) {
    issues.add("lineage.jsonl", `task ${rec.task_id}: directory ${display}/ is missing`, line);
    return { rec, line, task: null, unchanged: false, trials: [] };
  }
  const parsed = await readHarborTask(taskDir, display, issues);
  const contentHash = contentHashOf(parsed.files);
  let task: TaskInput | null = null;
  if (writer.needsTask(rec.task_id, contentHash)) {
    const metrics = await measureTask(parsed.texts);
    const taskEvals = evals.get(rec.task_id) ?? [];
    const headline = taskEvals.find((e) => e.model === solverModel) ?? taskEvals[0];
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
      searchText: searchableText(parsed.texts),
      files: parsed.files,
      evals: taskEvals.map((e) => ({ model: e.model, k: e.k, n: e.n, successes: e.successes, meanReward: e.mean_reward ?? null })),
    };
  }
  const trials = await readTrials(dir, rec.task_id, contentHash, writer, issues);
  return { rec, line, task, unchanged: task === null, trials };
}

async function readTrials(dir: string, taskId: string, contentHash: string, writer: RunWriter, issues: IssueList): Promise<TrialInput[]> {
  const trialsDir = path.join(dir, "trials", taskId);
  if (!(await isDirectory(trialsDir))) return [];
  const out: TrialInput[] = [];
  const names = (await fs.readdir(trialsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  for (const name of names) {
    if (writer.hasTrial(taskId, name)) continue;
    const t = await readHarborTrial(path.join(trialsDir, name), `trials/${taskId}/${name}`, issues);
    if (!t) continue;
    out.push({
      taskExtId: taskId,
      extId: name,
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
      },
      tests: t.tests,
      logs: t.logs,
    });
  }
  return out;
}

/** Reads every candidate of lineage.jsonl; returns the ids seen, for the lineage checks. */
export async function streamRun(
  dir: string,
  writer: RunWriter,
  issues: IssueList,
  opts: { solverModel: string | null; onProgress?: (p: ReadProgress) => void; total: number },
): Promise<{ records: Map<string, { parent: string | null; line: number; round: number }> }> {
  const evals = await readEvals(dir, issues);
  const records = new Map<string, { parent: string | null; line: number; round: number }>();
  const lineage = readJsonl(path.join(dir, "lineage.jsonl"), "lineage.jsonl", lineageSchema, issues);
  async function* unique() {
    for await (const { line, value } of lineage) {
      if (records.has(value.task_id)) {
        issues.add("lineage.jsonl", `task_id ${value.task_id} appears twice (first on line ${records.get(value.task_id)?.line})`, line);
        continue;
      }
      records.set(value.task_id, { parent: value.parent_id, line, round: value.round });
      yield { line, value };
    }
  }
  let done = 0;
  for await (const r of mapOrdered(unique(), READ_AHEAD, ({ line, value }) => readOne(dir, value, line, evals, opts.solverModel, writer, issues))) {
    if (r.task) await writer.addTask(r.task);
    else if (r.unchanged) writer.counts.tasksUnchanged++;
    for (const t of r.trials) await writer.addTrial(t);
    done++;
    opts.onProgress?.({ done, total: opts.total });
  }
  for (const [taskId, ev] of evals) if (!records.has(taskId)) issues.add("evals.jsonl", `task_id ${taskId} is not in lineage.jsonl (model ${ev[0]?.model ?? "?"})`);
  return { records };
}
