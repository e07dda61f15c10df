// A pool of worker threads that run one TypeScript module each. Reading, hashing and measuring a
// candidate is CPU work in the importing process; on two cores it overlaps with the database
// writes only in other threads. Used by the CLI and tests; the server's upload route imports in
// its own thread (`threads: 0`) and never starts a pool.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Node 20 does not hand module.register hooks to worker threads, so each thread registers tsx
 * itself before importing its TypeScript entry (as bin/rst-curator.js does for the CLI; under
 * vitest the same works). Plain CommonJS, evaluated: no file of its own to resolve or bundle.
 */
const BOOT = `
const { workerData } = require("node:worker_threads");
import(workerData.tsx)
  .then(({ register }) => { register(); return import(workerData.entry); })
  .catch((err) => { setImmediate(() => { throw err; }); });
`;

let tsxApi: string | undefined;

/** tsx's ESM register API as a file URL (its CommonJS build cannot register the ESM loader). */
function tsxApiUrl(): string {
  if (tsxApi) return tsxApi;
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("tsx/package.json");
  // Read, not required: the server bundle (which holds this module for the upload route, though
  // it never starts threads) must not try to bundle a computed path.
  const pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8")) as { exports: Record<string, { import?: { default?: string } }> };
  const rel = pkg.exports["./esm/api"]?.import?.default;
  if (!rel) throw new Error("tsx does not export ./esm/api");
  tsxApi = pathToFileURL(path.join(path.dirname(pkgPath), rel)).href;
  return tsxApi;
}

/** The index of the thread to use given each one's pending jobs: `prefer` unless it has more than
 * `slack` jobs more than the least busy, which is taken then (also when there is no preference). */
export function pickThread(pending: readonly number[], prefer?: number, slack = 16): number {
  let least = 0;
  for (let i = 1; i < pending.length; i++) if ((pending[i] ?? 0) < (pending[least] ?? 0)) least = i;
  if (prefer === undefined || prefer < 0 || prefer >= pending.length) return least;
  return (pending[prefer] ?? 0) - (pending[least] ?? 0) > slack ? least : prefer;
}

/** What a pool entry module posts back for each job. */
export type ThreadReply<R> = { id: number; result: R } | { id: number; error: string };

interface Pending<R> {
  resolve(value: R): void;
  reject(err: Error): void;
}

interface Thread<R> {
  worker: Worker;
  pending: Map<number, Pending<R>>;
}

/** Jobs go to the thread with the fewest pending; each job's promise settles with its reply. */
export class ThreadPool<J, R> {
  private readonly threads: Thread<R>[] = [];
  private nextId = 0;
  private failure: Error | null = null;
  private closed = false;

  constructor(entry: URL, size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(BOOT, { eval: true, workerData: { tsx: tsxApiUrl(), entry: entry.href } });
      const thread: Thread<R> = { worker, pending: new Map() };
      worker.on("message", (reply: ThreadReply<R>) => {
        const p = thread.pending.get(reply.id);
        if (!p) return;
        thread.pending.delete(reply.id);
        if ("error" in reply) p.reject(new Error(reply.error));
        else p.resolve(reply.result);
      });
      worker.on("error", (err) => this.fail(thread, err));
      worker.on("exit", (code) => {
        if (!this.closed) this.fail(thread, new Error(`a reader thread stopped (exit code ${code})`));
      });
      this.threads.push(thread);
    }
  }

  private fail(thread: Thread<R>, err: Error): void {
    this.failure ??= err;
    for (const p of thread.pending.values()) p.reject(err);
    thread.pending.clear();
  }

  /**
   * The thread a job should go to: `prefer` (a thread index: work that profits from what that thread
   * read before) unless it has `slack` more jobs pending than the least busy one, which is taken then.
   */
  choose(prefer?: number, slack = 16): number {
    return pickThread(
      this.threads.map((t) => t.pending.size),
      prefer,
      slack,
    );
  }

  /** Runs `job` in thread `thread` (an index, as `choose` gives), or in the least busy one. */
  run(job: J, thread?: number): Promise<R> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error("the thread pool is closed"));
    const target = this.threads[thread ?? this.choose()];
    if (!target) return Promise.reject(new Error("the thread pool is empty"));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.postMessage({ id, job });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
    for (const t of this.threads) this.fail(t, new Error("the thread pool is closed"));
  }
}
