// Streams a native RST run directory into a RunWriter, candidate by candidate, with bounded
// memory: reader threads read, hash and measure candidates ahead while this thread writes.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RunWriter } from "@/db/queries/ingest";
import type { IssueList } from "../errors";
import { readJsonl } from "../jsonl";
import { mapOrdered } from "../pool";
import { ThreadPool } from "../threads";
import { forgetParents, readCandidate, type CandidateJob, type CandidateResult } from "./read-candidate";
import { evalSchema, lineageSchema, type EvalRecord } from "./schemas";

export { contentHashOf } from "./read-candidate";

const READER_ENTRY = new URL("./read-worker.ts", import.meta.url);

/** Candidates in flight per reader thread: enough queued work to keep a thread busy while this
 * thread waits on a database flush; little enough memory (a candidate is ~100 KB). Into embedded
 * PGlite, whose writes hold this thread, four times as many: at paper scale the readers had
 * waited for it (the machine idle 227 of 1,685 CPU-s) and the import took 881 s against 781 s
 * with 256 (idle 103 CPU-s; docs/benchmarks.md, session 26). Into PostgreSQL the larger window
 * changed nothing (session 14). */
const AHEAD_PER_THREAD = 64;
const AHEAD_PER_THREAD_EMBEDDED = 256;
const AHEAD_INLINE = 8;

/** How many candidates are read ahead of the one being written. */
export function candidatesAhead(opts: { threads: number; embeddedDatabase: boolean }): number {
  if (opts.threads === 0) return AHEAD_INLINE;
  return opts.threads * (opts.embeddedDatabase ? AHEAD_PER_THREAD_EMBEDDED : AHEAD_PER_THREAD);
}

export interface ReadProgress {
  done: number;
  total: number;
}

/** Below this many candidates a run is read in the importing thread. */
export const MIN_THREADED_CANDIDATES = 2000;

/**
 * None for a run of fewer than MIN_THREADED_CANDIDATES: a new thread starts cold (its own JIT and
 * its own compile of the tree-sitter grammars), ≈ 4 CPU-seconds each here, so a small run reads
 * faster inline (a 1,097-candidate run into PostgreSQL: 13.1–14.2 s and ≈ 10.5 CPU-s inline,
 * 15.6–16.1 s and ≈ 24 CPU-s with four readers; at 2,727 the two are even; docs/benchmarks.md,
 * session 21). Otherwise two per core, at most 8: the readers do most of the work, and a reader
 * of a run that is not in the page cache waits on the disk for every file while a second one per
 * core computes (on this 2-core VM with a cold cache, the 9k-candidate import into PostgreSQL took
 * 112–130 s with four against 139–147 s with two; the same with a warm cache). One per core into
 * embedded PGlite: the database runs in the main thread, which more readers would take time from
 * (106–109 s with two against 115–127 s with four). docs/benchmarks.md, session 16.
 */
export function defaultReaderThreads(opts: { embeddedDatabase: boolean; candidates: number }): number {
  if (opts.candidates < MIN_THREADED_CANDIDATES) return 0;
  const cores = os.availableParallelism();
  return Math.max(1, Math.min(8, opts.embeddedDatabase ? cores : 2 * cores));
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

/** Reads every candidate of lineage.jsonl; returns the ids seen, for the lineage checks.
 * `threads: 0` reads in this thread (small runs, tests). */
export async function streamRun(
  dir: string,
  writer: RunWriter,
  issues: IssueList,
  opts: { solverModel: string | null; onProgress?: (p: ReadProgress) => void; total: number; threads: number; warnings: IssueList },
): Promise<{ records: Map<string, LineageSeen> }> {
  const evals = await readEvals(dir, issues);
  const records = new Map<string, LineageSeen>();
  const lineage = readJsonl(path.join(dir, "lineage.jsonl"), "lineage.jsonl", lineageSchema, issues);
  async function* jobs(): AsyncGenerator<CandidateJob> {
    for await (const { line, value } of lineage) {
      if (records.has(value.task_id)) {
        issues.add("lineage.jsonl", `task_id ${value.task_id} appears twice (first on line ${records.get(value.task_id)?.line})`, line);
        continue;
      }
      records.set(value.task_id, { parent: value.parent_id, line, round: value.round });
      yield {
        dir,
        rec: value,
        line,
        evals: evals.get(value.task_id) ?? [],
        solverModel: opts.solverModel,
        knownHash: writer.knownHash(value.task_id),
        knownTrials: writer.knownTrials(value.task_id),
        searchText: writer.needsSearchText,
        lineageDeclared: true,
      };
    }
  }
  await streamCandidates(jobs(), writer, issues, opts);
  for (const [taskId, ev] of evals) if (!records.has(taskId)) issues.add("evals.jsonl", `task_id ${taskId} is not in lineage.jsonl (model ${ev[0]?.model ?? "?"})`);
  return { records };
}

/** What the lineage checks need of a candidate once all are read. */
export interface LineageSeen {
  parent: string | null;
  line: number;
  round: number | null;
}

/**
 * Reads `jobs` (in reader threads, or in this thread when `threads` is 0) and writes what they
 * yield in their order. Problems land in `issues`; after the first one, reading goes on (to report
 * every problem) but writing stops, since the transaction will roll back.
 */
export async function streamCandidates(
  jobs: AsyncIterable<CandidateJob>,
  writer: RunWriter,
  issues: IssueList,
  opts: { onProgress?: (p: ReadProgress) => void; total: number; threads: number; warnings: IssueList },
): Promise<void> {
  /** the reader thread each task went to: its children go there too */
  const threadOf = new Map<string, number>();
  const threads = opts.threads;
  const pool = threads > 0 ? new ThreadPool<CandidateJob, CandidateResult>(READER_ENTRY, threads) : null;
  // A child goes to the thread that read its parent: it is parsed from where it stops repeating the
  // parent (lib/metrics/outlines), which that thread remembers. Unless that thread is well behind
  // the other: a child read elsewhere is parsed whole, and reads the same.
  const read = pool
    ? (job: CandidateJob) => {
        const thread = pool.choose(job.rec.parent_id === null ? undefined : threadOf.get(job.rec.parent_id));
        threadOf.set(job.rec.task_id, thread);
        return pool.run(job, thread);
      }
    : readCandidate;
  let done = 0;
  try {
    for await (const r of mapOrdered(jobs, candidatesAhead({ threads, embeddedDatabase: writer.embeddedDatabase }), read)) {
      for (const issue of r.issues) issues.add(issue.file, issue.message, issue.line);
      for (const w of r.warnings) opts.warnings.add(w.file, w.message, w.line);
      if (issues.size === 0) {
        if (r.task) await writer.addTask(r.task);
        else if (r.unchanged) writer.counts.tasksUnchanged++;
        for (const t of r.trials) await writer.addTrial(t);
      }
      done++;
      opts.onProgress?.({ done, total: opts.total });
    }
  } finally {
    await pool?.close();
    if (!pool) forgetParents();
  }
}
