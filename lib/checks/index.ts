// Server only: the verifier-consistency checks (FORMATS.md § Checks) over a run, or over some of
// its tasks and their neighbours (parent, children). Tasks are read in batches in id order (a
// parent comes before its children), so a paper-scale run never sits in memory. The main thread
// only loads batches and writes findings; analysing and evaluating a batch (batch.ts) runs in
// checker threads, several batches in flight, when there is enough work to pay for starting them.
import os from "node:os";
import { CLI_ACTOR } from "@/lib/auth/actor";
import type { Db } from "@/db/client";
import { recordAudit } from "@/db/queries/audit";
import { acceptedTaskIds, countAccepted, findRun, loadBatch, loadReadings, loadTrials, runHasValidation, withNeighbours, writeFindings } from "@/db/queries/checks";
import { FLAG_RULES, type FlagRule } from "@/lib/domain";
import { env } from "@/lib/env";
import type { Finding } from "@/lib/flags/types";
import { mapOrdered } from "@/lib/ingest/pool";
import { ThreadPool } from "@/lib/ingest/threads";
import { checkJob, type CheckJob } from "./batch";
import type { StoredReading } from "./readings";
import { RULE_MODULES } from "./rules";

const CHECK_ENTRY = new URL("./check-worker.ts", import.meta.url);

/** Fewer tasks than this are checked inline: starting a thread (tsx, grammars) costs ≈ 1 s. */
const MIN_THREADED_TASKS = 300;

export interface CheckOptions {
  runId: number;
  /** only these tasks and their neighbours (parent, children); all accepted tasks when absent */
  taskIds?: readonly number[];
  rules?: readonly FlagRule[];
  batchSize?: number;
  /** checker threads (default: none; with `reparse`, one per core for 300 tasks or more, never inside the Next server); 0 checks in the calling thread */
  threads?: number;
  /** parse every file again instead of using the readings stored at import (readings.ts) */
  reparse?: boolean;
  actor?: { id: string | null; label: string };
  onProgress?: (done: number) => void;
  /** every finding, as evaluated (the bench compares them across versions) */
  onFindings?: (findings: readonly Finding[]) => void;
}

export interface CheckSummary {
  run: string;
  tasks: number;
  /** findings per rule (every selected rule listed, zeros included) */
  counts: Record<string, number>;
  inserted: number;
  resolved: number;
  reopened: number;
  durationMs: number;
}

export function defaultCheckThreads(): number {
  // The server's bundle cannot start a TypeScript worker (as the upload route's import, it reads inline).
  if (env.inNextServer) return 0;
  return Math.max(1, Math.min(8, os.availableParallelism()));
}

export async function runChecks(db: Db, opts: CheckOptions): Promise<CheckSummary> {
  const started = Date.now();
  const rules = opts.rules && opts.rules.length > 0 ? RULE_MODULES.filter((r) => opts.rules?.includes(r.id)) : RULE_MODULES;
  const ruleIds = rules.map((r) => r.id);
  const [run] = (await findRun(db, undefined)).filter((r) => r.id === opts.runId);
  if (!run) throw new Error(`no run with id ${opts.runId}`);
  const hasValidation = await runHasValidation(db, opts.runId);
  const counts: Record<string, number> = Object.fromEntries(ruleIds.map((r) => [r, 0]));
  const total = { tasks: 0, inserted: 0, resolved: 0, reopened: 0 };
  const batchSize = opts.batchSize ?? 200;
  const needsReadings = rules.some((r) => r.needs !== "trials");

  const selected = opts.taskIds ? await withNeighbours(db, opts.runId, opts.taskIds) : null;
  const pending = selected ? selected.length : await countAccepted(db, opts.runId);
  // With the readings stored at import a check is bound by the database, not by parsing: inline,
  // with the next batch loading while one is evaluated, beats threads (which copy every batch's
  // text to them). Threads pay off when every file is parsed again (`reparse`).
  const threads = opts.threads ?? (opts.reparse && pending >= MIN_THREADED_TASKS ? defaultCheckThreads() : 0);

  async function* batches(): AsyncGenerator<number[]> {
    if (selected) {
      for (let i = 0; i < selected.length; i += batchSize) yield selected.slice(i, i + batchSize);
      return;
    }
    let after = 0;
    for (;;) {
      const ids = await acceptedTaskIds(db, opts.runId, after, batchSize);
      if (ids.length === 0) return;
      yield ids;
      after = ids[ids.length - 1] ?? after;
    }
  }
  async function* jobs(): AsyncGenerator<CheckJob> {
    for await (const ids of batches()) {
      const { tasks, parents } = await loadBatch(db, ids);
      const trials = await loadTrials(db, ids);
      const readings = opts.reparse || !needsReadings ? [] : await loadReadings(db, { tasks, parents });
      yield { tasks, parents, trials, rules: ruleIds, runHasValidation: hasValidation, readings };
    }
  }

  // One single-thread pool per thread, so that a lineage stays on one thread: a child goes where
  // its parent went, and finds the parent's files already read there (seeds go round-robin).
  const pools = Array.from({ length: threads }, () => new ThreadPool<CheckJob, Finding[]>(CHECK_ENTRY, 1));
  const home = new Map<number, number>();
  const assigned = pools.map(() => 0);
  let next = 0;
  const check = async (job: CheckJob): Promise<Finding[]> => {
    if (pools.length === 0) return checkJob(job);
    const parts = pools.map((): CheckJob => ({ ...job, tasks: [], parents: [], trials: new Map(), readings: [] }));
    const parentById = new Map(job.parents.map((p) => [p.id, p]));
    for (const t of job.tasks) {
      let at = (t.parentId === null ? undefined : home.get(t.parentId)) ?? next++ % pools.length;
      // …unless that thread is well ahead of the least loaded one (a parent read twice is cheaper).
      const least = assigned.indexOf(Math.min(...assigned));
      if ((assigned[at] ?? 0) > (assigned[least] ?? 0) * 1.2 + 100) at = least;
      assigned[at] = (assigned[at] ?? 0) + 1;
      home.set(t.id, at);
      const part = parts[at]!;
      part.tasks.push(t);
      part.trials.set(t.id, job.trials.get(t.id) ?? []);
      const parent = t.parentId === null ? undefined : parentById.get(t.parentId);
      if (parent && !part.parents.includes(parent)) part.parents.push(parent);
    }
    // Each thread gets the readings of its own tasks' and parents' files.
    if (job.readings.length > 0) {
      const byHash = new Map<string, StoredReading[]>();
      for (const r of job.readings) byHash.set(r.hash, [...(byHash.get(r.hash) ?? []), r]);
      for (const part of parts) {
        const hashes = new Set([...part.tasks, ...part.parents].flatMap((t) => [...t.files.values()].map((f) => f.hash)));
        part.readings = [...hashes].flatMap((h) => byHash.get(h) ?? []);
      }
    }
    const found = await Promise.all(parts.map((part, i) => (part.tasks.length === 0 ? [] : pools[i]!.run(part))));
    return found.flat();
  };
  try {
    const done = mapOrdered(jobs(), pools.length > 0 ? threads * 2 : 2, async (job) => ({ evaluated: job.tasks.map((t) => ({ id: t.id, contentHash: t.contentHash })), findings: await check(job) }));
    for await (const { evaluated, findings } of done) {
      for (const f of findings) counts[f.rule] = (counts[f.rule] ?? 0) + 1;
      opts.onFindings?.(findings);
      const w = await writeFindings(db, evaluated, ruleIds, findings);
      total.tasks += evaluated.length;
      total.inserted += w.inserted;
      total.resolved += w.resolved;
      total.reopened += w.reopened;
      opts.onProgress?.(total.tasks);
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  const summary: CheckSummary = { run: run.name, ...total, counts, durationMs: Date.now() - started };
  await recordAudit(db, {
    actorId: opts.actor?.id ?? null,
    actorLabel: opts.actor?.label ?? CLI_ACTOR.label,
    action: "check",
    targetType: "run",
    targetId: run.name,
    details: { tasks: total.tasks, scope: opts.taskIds ? "incremental" : "full", rules: ruleIds.length === FLAG_RULES.length ? "all" : ruleIds, counts, inserted: total.inserted, resolved: total.resolved, reopened: total.reopened },
  });
  return summary;
}
