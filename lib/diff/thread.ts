// Server only: a second thread for the diff page, so that on two cores its CPU work is split: the
// step summary (tree-sitter) and the highlighting of the verifier's Python files (which the summary
// parses there anyway) run there while the calling thread highlights the rest. One thread per process, started on
// first use, holding the process open only while it has work. When it cannot start or dies, the
// work is done inline from then on (logged once); the results are the same either way.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { env } from "@/lib/env";
import { clearHighlightCache } from "@/lib/text/highlight";
import type { CodeLine } from "@/lib/text/tones";
import type { TaskFiles } from "./files";
import { fileSides, type FileSides } from "./payload";
import type { DiffRowTuple } from "./payload-types";
import { clearSummaryCaches, isTestFile, stepSummary, summaryInputs, type StepReadings, type StepSummary } from "./summary";

type JobBody =
  | { op: "summary"; parent: TaskFiles; child: TaskFiles; known: StepReadings }
  | { op: "sides"; path: string; oldText: string | undefined; newText: string | undefined; rows: readonly DiffRowTuple[] }
  | { op: "clear" };
export type ThreadJob = JobBody & { id: number };
export type ThreadResult = StepSummary | [CodeLine[], CodeLine[]] | null;
export type ThreadReply = { id: number; result: ThreadResult } | { id: number; error: string };

/**
 * Outside the Next server (CLI, benchmarks, vitest) the entry is TypeScript: the thread registers
 * tsx before importing it (Node 20 does not hand module.register hooks to worker threads; as
 * lib/ingest/threads does). Plain CommonJS, evaluated: no file of its own to resolve or bundle.
 */
const BOOT = `
const { workerData } = require("node:worker_threads");
import(workerData.tsx)
  .then(({ register }) => { register(); return import(workerData.entry); })
  .catch((err) => { setImmediate(() => { throw err; }); });
`;

function tsxApiUrl(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("tsx/package.json");
  const pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8")) as { exports: Record<string, { import?: { default?: string } }> };
  const rel = pkg.exports["./esm/api"]?.import?.default;
  if (!rel) throw new Error("tsx does not export ./esm/api");
  return pathToFileURL(path.join(path.dirname(pkgPath), rel)).href;
}

function startWorker(): Worker {
  // Turbopack bundles this literal form as a worker entry of the server (with its imports).
  if (env.inNextServer) return new Worker(new URL("./thread-worker.ts", import.meta.url));
  const entry = new URL("./thread-worker.ts", import.meta.url).href;
  return new Worker(BOOT, { eval: true, workerData: { tsx: tsxApiUrl(), entry } });
}

interface Pending {
  resolve(result: ThreadResult): void;
  reject(err: Error): void;
}

class DiffThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Set when the thread failed (did not start, threw, exited): every job since is refused. */
  failure: Error | null = null;

  constructor() {
    this.worker = startWorker();
    this.worker.unref();
    this.worker.on("message", (reply: ThreadReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ("error" in reply) p.reject(new Error(reply.error));
      else p.resolve(reply.result);
    });
    this.worker.on("error", (err) => this.fail(err));
    this.worker.on("exit", (code) => this.fail(new Error(`the diff thread stopped (exit code ${code})`)));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  run(job: JobBody): Promise<ThreadResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...job, id });
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** undefined: not started yet; null: failed, the work is done inline. */
let thread: DiffThread | null | undefined;
let enabled = true;

/** Do the work inline (false) or in the thread (true, the default): benchmarks compare the two. */
export function useDiffThread(on: boolean): void {
  enabled = on;
}

function threadFailed(err: unknown): void {
  if (thread === null) return;
  console.error("diff pages are computed in one thread from now on: their second thread failed", err);
  const failed = thread;
  thread = null;
  void failed?.terminate().catch(() => undefined);
}

function currentThread(): DiffThread | null {
  if (!enabled) return null;
  if (thread === undefined) {
    try {
      thread = new DiffThread();
    } catch (err) {
      threadFailed(err);
    }
  }
  return thread && !thread.failure ? thread : null;
}

/** The job's result from the thread; undefined when the thread is not available (do it inline). */
async function inThread(job: JobBody): Promise<ThreadResult | undefined> {
  const t = currentThread();
  if (!t) return undefined;
  try {
    return await t.run(job);
  } catch (err) {
    // A failed thread falls back to inline work for good; a job that threw is done again inline,
    // where its error (if it is not the thread's) is the caller's.
    if (t.failure) threadFailed(t.failure);
    else console.error(`a diff-thread job (${job.op}) failed; done again inline`, err);
    return undefined;
  }
}

/** `stepSummary` (same result), parsed in the thread; only the files a summary reads are sent. */
export async function stepSummaryInThread(parentFiles: TaskFiles, childFiles: TaskFiles, known: StepReadings = {}): Promise<StepSummary> {
  const result = await inThread({ op: "summary", parent: summaryInputs(parentFiles), child: summaryInputs(childFiles), known });
  return result && !Array.isArray(result) ? result : stepSummary(parentFiles, childFiles, known);
}

/** `fileSides` (same result), highlighted in the thread. */
export const fileSidesInThread: FileSides = async (path, oldText, newText, rows) => {
  const result = await inThread({ op: "sides", path, oldText, newText, rows });
  return Array.isArray(result) ? result : fileSides(path, oldText, newText, rows);
};

/** The diff page's split: tests/**.py highlighted in the thread, the rest here (about even halves). */
export const splitFileSides: FileSides = (path, oldText, newText, rows) =>
  (isTestFile(path) ? fileSidesInThread : fileSides)(path, oldText, newText, rows);

/** Forget every highlighted file and parsed summary, in this thread and in the diff thread. */
export async function clearDiffCaches(): Promise<void> {
  clearHighlightCache();
  clearSummaryCaches();
  if (thread && !thread.failure) await thread.run({ op: "clear" }).catch(() => undefined);
}

/** Whether work goes to the thread: not yet started, started, or failed (done inline). */
export function diffThreadState(): "idle" | "running" | "failed" {
  if (thread === undefined) return "idle";
  return thread === null || thread.failure ? "failed" : "running";
}

/** Stop the thread (tests); the next job starts another. */
export async function stopDiffThread(): Promise<void> {
  const t = thread;
  thread = undefined;
  if (t) await t.terminate();
}
