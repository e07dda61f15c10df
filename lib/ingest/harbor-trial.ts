// A Harbor trial directory (FORMATS.md §3): result, per-test results and logs.
import path from "node:path";
import { z } from "zod";
import type { CheckKind } from "@/lib/domain";
import { countLinesOfBytes, storedText, toStoredContent, type StoredContent } from "./content";
import { formatIssue, IssueList } from "./errors";
import { MAX_JSON_FILE, parseJsonText } from "./jsonl";
import { cutLogChunks, needsChunks, type LogChunk } from "./log-chunks";
import { locateTests, parsePytestOutput } from "./pytest";
import { readTree, type TreeFile } from "./walk";

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
  /** where the test's outcome is reported (VERIFIER_LOG), when found */
  logName: string | null;
  logLine: number | null;
}

export interface TrialLog {
  name: string;
  stored: StoredContent;
  lines: number;
  /** line chunks of a large log (log-chunks.ts), null for a small one */
  chunks: LogChunk[] | null;
}

/** The verifier's console output: per-test results are parsed from it and tests link into it. */
export const VERIFIER_LOG = "verifier/test-stdout.txt";

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
  /** what was wrong with the trial's own files; the trial is kept */
  problems: string[];
}

const NOT_LOGS = new Set(["result.json", "config.json", "check.json"]);
/** Verifier output above this size is not parsed for tests (pytest never prints that much). */
const MAX_PARSED_OUTPUT = 8 * 1024 * 1024;

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

/** A JSON file of the trial, from the bytes already read; null when absent or bad. */
function jsonOf<T>(file: TreeFile | undefined, display: string, schema: z.ZodType<T>, issues: IssueList): T | null {
  if (!file) return null;
  if (file.bytes.length > MAX_JSON_FILE) {
    issues.add(display, `file is ${file.bytes.length} bytes, over the ${MAX_JSON_FILE}-byte limit`);
    return null;
  }
  return parseJsonText(file.bytes.toString("utf8"), display, schema, issues);
}

/** Reads the trial directory once: the JSON files are parsed from the same bytes that are stored
 * as logs (ctrf.json is both). A trial is evidence, not the run's skeleton: what is wrong with it
 * goes to `warnings` (reported with the import), and the trial is skipped only when there is no
 * readable result.json; lesser problems are kept on the trial as `problems`. */
export function readHarborTrial(dir: string, display: string, warnings: IssueList): ParsedTrial | null {
  const files = readTree(dir, warnings, display);
  const byName = new Map(files.map((f) => [f.rel, f]));
  if (!byName.has("result.json")) {
    warnings.add(`${display}/result.json`, "missing: a trial directory needs result.json; trial skipped");
    return null;
  }
  const before = warnings.size;
  const result = jsonOf(byName.get("result.json"), `${display}/result.json`, trialResultSchema, warnings);
  if (!result) {
    if (warnings.size === before) warnings.add(`${display}/result.json`, "unreadable; trial skipped");
    return null;
  }
  // Lesser problems, named relative to the trial: kept on it, and reported with the import.
  const found = new IssueList();
  const declared = jsonOf(byName.get("check.json"), "check.json", checkSchema, found);
  const agentName = result.agent_info?.name ?? null;

  const logs: TrialLog[] = [];
  for (const f of files) {
    if (NOT_LOGS.has(f.rel)) continue;
    const lines = countLinesOfBytes(f.bytes);
    const stored = toStoredContent(f.bytes);
    logs.push({ name: f.rel, stored, lines, chunks: needsChunks(f.bytes.length, lines) ? cutLogChunks(storedText(stored)) : null });
  }

  const tests = readTests(byName, found);
  const rewards: Record<string, number> = {};
  for (const [k, v] of Object.entries(result.verifier_result?.rewards ?? {})) if (typeof v === "number") rewards[k] = v;
  let reward = rewards.reward ?? null;
  if (reward === null && result.verifier_result == null) {
    const rewardFile = byName.get("verifier/reward.txt");
    if (rewardFile) {
      reward = parseRewardText(rewardFile.bytes.toString("utf8"));
      const text = rewardFile.bytes.toString("utf8");
      if (reward === null) found.add("verifier/reward.txt", `holds ${JSON.stringify(text.slice(0, 40))}, not a number; reward left empty`);
    }
  }
  for (const i of found.items) warnings.add(`${display}/${i.file}`, i.message, i.line);

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
    problems: found.items.map(formatIssue),
  };
}

/** Per-test results: ctrf.json when there is one, else pytest's own lines in the verifier output;
 * each test located in that output so the page can link to where it failed. */
function readTests(byName: Map<string, TreeFile>, problems: IssueList): TrialTest[] {
  const ctrf = jsonOf(byName.get("verifier/ctrf.json"), "verifier/ctrf.json", ctrfSchema, problems);
  const stdout = byName.get(VERIFIER_LOG);
  const text = stdout && stdout.bytes.length <= MAX_PARSED_OUTPUT ? stdout.bytes.toString("utf8") : null;
  const found = ctrf
    ? ctrf.results.tests.map((t) => ({ name: t.name, status: t.status, durationMs: t.duration ?? null, message: t.message ?? null }))
    : text
      ? parsePytestOutput(text).map((t) => ({ ...t, durationMs: null }))
      : [];
  const lines = text ? locateTests(text, found) : found.map(() => null);
  return found.map((t, i) => {
    const logLine = lines[i] ?? null;
    return { ...t, logName: logLine === null ? null : VERIFIER_LOG, logLine };
  });
}
