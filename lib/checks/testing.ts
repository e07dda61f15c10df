// Test helpers: small hand-written tasks and trials for the rule tests.
import { createHash } from "node:crypto";
import type { CheckKind } from "@/lib/domain";
import type { AnalysedTask, CheckTask, CheckTrial, CheckTrialTest, RuleInput } from "./types";
import { analyseTask } from "./verifier";

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

export function makeTask(id: number, files: Record<string, string>, opts: { parentId?: number | null; status?: "accepted" | "rejected" } = {}): CheckTask {
  const m = new Map(Object.entries(files).map(([path, text]) => [path, { path, hash: hash(text), text }]));
  const contentHash = hash([...m.values()].map((f) => `${f.path}:${f.hash}`).sort().join("\n"));
  return { id, extId: `t${id}`, status: opts.status ?? "accepted", contentHash, parentId: opts.parentId ?? null, files: m };
}

export async function analysed(id: number, files: Record<string, string>, opts: { parentId?: number | null } = {}): Promise<AnalysedTask> {
  return analyseTask(makeTask(id, files, opts));
}

let trialId = 100;
export function trial(check: CheckKind, reward: number | null, opts: Partial<CheckTrial> & { tests?: CheckTrialTest[] } = {}): CheckTrial {
  trialId += 1;
  return {
    id: trialId,
    extId: `${check}-${trialId}`,
    check,
    reward,
    exceptionType: null,
    exceptionMessage: null,
    contentHash: null,
    tests: [],
    logs: ["verifier/test-stdout.txt"],
    ...opts,
  };
}

export function input(task: AnalysedTask, parent: AnalysedTask | null = null, trials: CheckTrial[] = [], runHasValidation = true): RuleInput {
  return { task, parent, trials, runHasValidation };
}
