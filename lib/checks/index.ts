// Server only: the verifier-consistency checks (FORMATS.md § Checks) over a run, or over some of
// its tasks and their neighbours (parent, children). Tasks are read in batches in id order, so a
// paper-scale run never sits in memory; parents are kept in a small cache across batches.
import { CLI_ACTOR } from "@/lib/auth/actor";
import type { Db } from "@/db/client";
import { recordAudit } from "@/db/queries/audit";
import { acceptedTaskIds, findRun, loadTasks, loadTrials, runHasValidation, withNeighbours, writeFindings } from "@/db/queries/checks";
import { FLAG_RULES, type FlagRule } from "@/lib/domain";
import type { Finding } from "@/lib/flags/types";
import { Lru } from "@/lib/rounds/lru";
import { evaluate } from "./evaluate";
import { RULE_MODULES } from "./rules";
import type { AnalysedTask } from "./types";
import { analyseTask } from "./verifier";

export interface CheckOptions {
  runId: number;
  /** only these tasks and their neighbours (parent, children); all accepted tasks when absent */
  taskIds?: readonly number[];
  rules?: readonly FlagRule[];
  batchSize?: number;
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

export async function runChecks(db: Db, opts: CheckOptions): Promise<CheckSummary> {
  const started = Date.now();
  const rules = opts.rules && opts.rules.length > 0 ? RULE_MODULES.filter((r) => opts.rules?.includes(r.id)) : RULE_MODULES;
  const ruleIds = rules.map((r) => r.id);
  const needStatic = rules.some((r) => r.needs !== "trials");
  const [run] = (await findRun(db, undefined)).filter((r) => r.id === opts.runId);
  if (!run) throw new Error(`no run with id ${opts.runId}`);
  const hasValidation = await runHasValidation(db, opts.runId);
  const counts: Record<string, number> = Object.fromEntries(ruleIds.map((r) => [r, 0]));
  const total = { tasks: 0, inserted: 0, resolved: 0, reopened: 0 };
  const analysed = new Lru<number, AnalysedTask>(3000);
  const batchSize = opts.batchSize ?? 400;

  // Tasks whose solution was read (a task first read as a parent was not).
  const withSolution = new Set<number>();
  const analyse = async (ids: readonly number[], asParent: boolean): Promise<Map<number, AnalysedTask>> => {
    const out = new Map<number, AnalysedTask>();
    const missing = ids.filter((id) => {
      const hit = analysed.get(id);
      const usable = hit && (asParent || hit.parentId === null || withSolution.has(id));
      if (usable) out.set(id, hit);
      return !usable;
    });
    for (const t of await loadTasks(db, missing)) {
      const readSolution = !asParent && t.parentId !== null && ruleIds.includes("unverified-step");
      const a = needStatic ? await analyseTask(t, { solution: readSolution }) : { ...t, verifier: { files: [], pythonFiles: [], tests: [], asserts: 0, paths: [] }, solution: null };
      if (readSolution) withSolution.add(t.id);
      else withSolution.delete(t.id);
      analysed.set(t.id, a);
      out.set(t.id, a);
    }
    return out;
  };

  const checkBatch = async (ids: readonly number[]) => {
    const tasks = await analyse(ids, false);
    const parentIds = [...new Set([...tasks.values()].map((t) => t.parentId).filter((p): p is number => p !== null))];
    const parents = needStatic ? await analyse(parentIds, true) : new Map<number, AnalysedTask>();
    const trials = await loadTrials(db, ids);
    const findings = [];
    for (const id of ids) {
      const task = tasks.get(id);
      if (!task) continue;
      const parent = task.parentId === null ? null : (parents.get(task.parentId) ?? null);
      const found = evaluate({ task, parent, trials: trials.get(id) ?? [], runHasValidation: hasValidation }, rules);
      for (const f of found) counts[f.rule] = (counts[f.rule] ?? 0) + 1;
      findings.push(...found);
    }
    const evaluated = [...tasks.values()].filter((t) => ids.includes(t.id)).map((t) => ({ id: t.id, contentHash: t.contentHash }));
    opts.onFindings?.(findings);
    const w = await writeFindings(db, evaluated, ruleIds, findings);
    total.tasks += evaluated.length;
    total.inserted += w.inserted;
    total.resolved += w.resolved;
    total.reopened += w.reopened;
    opts.onProgress?.(total.tasks);
  };

  if (opts.taskIds) {
    const ids = await withNeighbours(db, opts.runId, opts.taskIds);
    for (let i = 0; i < ids.length; i += batchSize) await checkBatch(ids.slice(i, i + batchSize));
  } else {
    let after = 0;
    for (;;) {
      const ids = await acceptedTaskIds(db, opts.runId, after, batchSize);
      if (ids.length === 0) break;
      await checkBatch(ids);
      after = ids[ids.length - 1] ?? after;
    }
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
