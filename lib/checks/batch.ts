// One batch of the checks, without a database: analyse the tasks and their parents, run the
// rules. Pure CPU work, so it runs in a checker thread (check-worker.ts) or inline; the main
// thread only loads batches and writes findings. Readings are cached by blob hash inside
// pytest.ts and shell.ts, so a file byte-identical to a sibling's or parent's is read once per
// thread, and a parent analysed for one child serves the rest.
import type { FlagRule } from "@/lib/domain";
import type { Finding } from "@/lib/flags/types";
import { Lru } from "@/lib/rounds/lru";
import { evaluate } from "./evaluate";
import { RULE_MODULES } from "./rules";
import { Readings, type StoredReading } from "./readings";
import type { AnalysedTask, CheckTask, CheckTrial } from "./types";
import { analyseTask } from "./verifier";

export interface CheckJob {
  /** the tasks to check, in id order */
  tasks: CheckTask[];
  /** their parents (those in the database), with what the rules read of a parent */
  parents: CheckTask[];
  trials: Map<number, CheckTrial[]>;
  rules: FlagRule[];
  runHasValidation: boolean;
  /** what the import stored of these tasks' files (readings.ts): a file with one is not parsed */
  readings: StoredReading[];
}

const EMPTY_VERIFIER = { files: [], pythonFiles: [], tests: [], asserts: 0, paths: [] };

// Parents (read without their solution) by id and content: consecutive batches share many.
const parentCache = new Lru<string, AnalysedTask>(2000);

export async function checkJob(job: CheckJob): Promise<Finding[]> {
  const rules = RULE_MODULES.filter((r) => job.rules.includes(r.id));
  const needStatic = rules.some((r) => r.needs !== "trials");
  const readSolution = job.rules.includes("unverified-step");
  const readings = Readings.of(job.readings);
  const analyse = async (t: CheckTask, asParent: boolean): Promise<AnalysedTask> => {
    if (!needStatic) return { ...t, verifier: EMPTY_VERIFIER, solution: null };
    // Only a child's new step is read from its solution: seeds and parents skip the parse.
    return analyseTask(t, { solution: !asParent && t.parentId !== null && readSolution, readings });
  };
  const parents = new Map<number, AnalysedTask>();
  if (needStatic) {
    for (const p of job.parents) {
      const key = `${p.id}:${p.contentHash}`;
      let a = parentCache.get(key);
      if (!a) parentCache.set(key, (a = await analyse(p, true)));
      parents.set(p.id, a);
    }
  }
  const findings: Finding[] = [];
  for (const t of job.tasks) {
    const task = await analyse(t, false);
    const parent = task.parentId === null ? null : (parents.get(task.parentId) ?? null);
    findings.push(...evaluate({ task, parent, trials: job.trials.get(t.id) ?? [], runHasValidation: job.runHasValidation }, rules));
  }
  return findings;
}
