// Server only: the step summary parsed in a thread of its own, so that on two cores a diff page's
// summary (tree-sitter) overlaps its highlighting (shiki, in the calling thread). One thread per
// process, started on first use, holding the process open only while it has work. When the thread
// cannot start or dies, the summary is parsed inline from then on (logged once).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { env } from "@/lib/env";
import type { TaskFiles } from "./files";
import { clearSummaryCaches, stepSummary, summaryInputs, type StepSummary } from "./summary";

type JobBody = { op: "summary"; parent: TaskFiles; child: TaskFiles } | { op: "clear" };
export type SummaryJob = JobBody & { id: number };
export type SummaryReply = { id: number; result: StepSummary | null } | { id: number; error: string };

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
  if (env.inNextServer) return new Worker(new URL("./summary-worker.ts", import.meta.url));
  const entry = new URL("./summary-worker.ts", import.meta.url).href;
  return new Worker(BOOT, { eval: true, workerData: { tsx: tsxApiUrl(), entry } });
}

interface Pending {
  resolve(result: StepSummary | null): void;
  reject(err: Error): void;
}

class SummaryThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Set when the thread failed (did not start, threw, exited): every job since is refused. */
  failure: Error | null = null;

  constructor() {
    this.worker = startWorker();
    this.worker.unref();
    this.worker.on("message", (reply: SummaryReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ("error" in reply) p.reject(new Error(reply.error));
      else p.resolve(reply.result);
    });
    this.worker.on("error", (err) => this.fail(err));
    this.worker.on("exit", (code) => this.fail(new Error(`the step-summary thread stopped (exit code ${code})`)));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  run(job: JobBody): Promise<StepSummary | null> {
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

/** undefined: not started yet; null: failed, the summaries are parsed inline. */
let thread: SummaryThread | null | undefined;
let enabled = true;

/** Parse summaries inline (false) or in their thread (true, the default): benchmarks compare the two. */
export function useSummaryThread(on: boolean): void {
  enabled = on;
}

function threadFailed(err: unknown): void {
  if (thread === null) return;
  console.error("step summaries are parsed inline from now on: their thread failed", err);
  const failed = thread;
  thread = null;
  void failed?.terminate().catch(() => undefined);
}

function currentThread(): SummaryThread | null {
  if (thread === undefined) {
    try {
      thread = new SummaryThread();
    } catch (err) {
      threadFailed(err);
    }
  }
  return thread ?? null;
}

/**
 * `stepSummary` (same result) parsed in the summary thread; inline when that thread is not
 * available. Only the files a summary reads are sent.
 */
export async function stepSummaryInThread(parentFiles: TaskFiles, childFiles: TaskFiles): Promise<StepSummary> {
  const t = enabled ? currentThread() : null;
  if (t && !t.failure) {
    try {
      const result = await t.run({ op: "summary", parent: summaryInputs(parentFiles), child: summaryInputs(childFiles) });
      if (result) return result;
    } catch (err) {
      // A failed thread falls back to inline parsing for good; an error the summary threw is passed on.
      if (t.failure) threadFailed(t.failure);
      else throw err;
    }
  }
  return stepSummary(parentFiles, childFiles);
}

/** Forget every parse the summaries remember, in this thread and in the summary thread. */
export async function clearAllSummaryCaches(): Promise<void> {
  clearSummaryCaches();
  if (thread && !thread.failure) await thread.run({ op: "clear" }).catch(() => undefined);
}

/** Whether summaries go to their thread: not yet started, started, or failed (parsed inline). */
export function summaryThreadState(): "idle" | "running" | "failed" {
  if (thread === undefined) return "idle";
  return thread === null || thread.failure ? "failed" : "running";
}

/** Stop the summary thread (tests); the next summary starts another. */
export async function stopSummaryThread(): Promise<void> {
  const t = thread;
  thread = undefined;
  if (t) await t.terminate();
}
