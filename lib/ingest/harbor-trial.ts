// A Harbor trial directory (FORMATS.md §3): result, per-test results and logs.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { CheckKind } from "@/lib/domain";
import { countLines, storedText, toStoredContent, type StoredContent } from "./content";
import type { IssueList } from "./errors";
import { readJsonFile } from "./jsonl";
import { isFile, walkFiles } from "./walk";

const timestamp = z.string().max(100).nullish();
const phase = z.looseObject({ started_at: timestamp, finished_at: timestamp }).nullish();

export const trialResultSchema = z.looseObject({
  id: z.string().max(200).nullish(),
  task_name: z.string().max(500).nullish(),
  trial_name: z.string().max(500).nullish(),
  task_checksum: z.string().max(200).nullish(),
  agent_info: z
    .looseObject({
      name: z.string().max(200).nullish(),
      model_info: z.looseObject({ name: z.string().max(200).nullish() }).nullish(),
    })
    .nullish(),
  verifier_result: z.looseObject({ rewards: z.record(z.string(), z.number().nullable()).nullish() }).nullish(),
  exception_info: z
    .looseObject({ exception_type: z.string().max(500).nullish(), exception_message: z.string().max(100_000).nullish() })
    .nullish(),
  started_at: timestamp,
  finished_at: timestamp,
  environment_setup: phase,
  agent_setup: phase,
  agent_execution: phase,
  verifier: phase,
});

const checkSchema = z.looseObject({ check: z.enum(["oracle", "nop", "parent-solution", "repeat"]) });

const ctrfSchema = z.looseObject({
  results: z.looseObject({
    tests: z
      .array(
        z.looseObject({
          name: z.string().max(2000),
          status: z.string().max(50),
          duration: z.number().nullish(),
          message: z.string().max(100_000).nullish(),
        }),
      )
      .max(100_000),
  }),
});

export const PHASES = ["environment_setup", "agent_setup", "agent_execution", "verifier"] as const;

export interface TrialTest {
  name: string;
  status: string;
  durationMs: number | null;
  message: string | null;
}

export interface TrialLog {
  name: string;
  stored: StoredContent;
  lines: number;
}

export interface ParsedTrial {
  extId: string;
  taskName: string | null;
  check: CheckKind;
  agentName: string | null;
  modelName: string | null;
  reward: number | null;
  rewards: Record<string, number> | null;
  exceptionType: string | null;
  exceptionMessage: string | null;
  taskChecksum: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  phases: Record<string, { started_at: string | null; finished_at: string | null }>;
  tests: TrialTest[];
  logs: TrialLog[];
}

const NOT_LOGS = new Set(["result.json", "config.json", "check.json"]);

function checkFromAgent(agent: string | null): CheckKind {
  if (agent === "oracle") return "oracle";
  if (agent === "nop") return "nop";
  return "agent";
}

/** A reward file holds one number; anything else is recorded as an issue-free null (not a verdict). */
function parseRewardText(text: string): number | null {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(n) ? n : null;
}

export async function readHarborTrial(dir: string, display: string, issues: IssueList): Promise<ParsedTrial | null> {
  const resultPath = path.join(dir, "result.json");
  if (!(await isFile(resultPath))) {
    issues.add(`${display}/result.json`, "missing: a trial directory needs result.json");
    return null;
  }
  const result = await readJsonFile(resultPath, `${display}/result.json`, trialResultSchema, issues);
  if (!result) return null;
  const checkFile = path.join(dir, "check.json");
  const declared = (await isFile(checkFile)) ? await readJsonFile(checkFile, `${display}/check.json`, checkSchema, issues) : null;
  const agentName = result.agent_info?.name ?? null;

  const tests: TrialTest[] = [];
  const ctrfPath = path.join(dir, "verifier", "ctrf.json");
  if (await isFile(ctrfPath)) {
    const ctrf = await readJsonFile(ctrfPath, `${display}/verifier/ctrf.json`, ctrfSchema, issues);
    for (const t of ctrf?.results.tests ?? []) {
      tests.push({ name: t.name, status: t.status, durationMs: t.duration ?? null, message: t.message ?? null });
    }
  }

  const logs: TrialLog[] = [];
  for (const f of await walkFiles(dir, issues, display)) {
    if (NOT_LOGS.has(f.rel)) continue;
    const stored = toStoredContent(await fs.readFile(f.abs));
    logs.push({ name: f.rel, stored, lines: countLines(storedText(stored)) });
  }

  const rewards: Record<string, number> = {};
  for (const [k, v] of Object.entries(result.verifier_result?.rewards ?? {})) if (typeof v === "number") rewards[k] = v;
  let reward = rewards.reward ?? null;
  if (reward === null && result.verifier_result == null) {
    const rewardLog = logs.find((l) => l.name === "verifier/reward.txt");
    if (rewardLog) reward = parseRewardText(storedText(rewardLog.stored));
  }

  const phases: ParsedTrial["phases"] = {};
  for (const p of PHASES) {
    const v = result[p];
    if (v) phases[p] = { started_at: v.started_at ?? null, finished_at: v.finished_at ?? null };
  }

  return {
    extId: result.trial_name ?? path.basename(dir),
    taskName: result.task_name ?? null,
    check: declared?.check ?? checkFromAgent(agentName),
    agentName,
    modelName: result.agent_info?.model_info?.name ?? null,
    reward,
    rewards: Object.keys(rewards).length > 0 ? rewards : null,
    exceptionType: result.exception_info?.exception_type ?? null,
    exceptionMessage: result.exception_info?.exception_message ?? null,
    taskChecksum: result.task_checksum ?? null,
    startedAt: result.started_at ?? null,
    finishedAt: result.finished_at ?? null,
    phases,
    tests,
    logs,
  };
}
