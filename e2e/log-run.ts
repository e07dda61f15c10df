// A native run with one task whose trial carries the logs the viewer must survive: ~50 MB of
// coloured verifier output, one 10 MB line, and hostile bytes (NUL, an OSC 8 javascript: link).
// Used by e2e/logs.spec.ts and bench/log-browser.ts, each uploading it to its own server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { writeTask } from "../lib/ingest/fixtures";
import { uploadRunDirectory } from "./upload";

export const BIG_LINES = 700_000;
/** Every this many lines the big log says "checkpoint reached" (a search with a known count). */
export const CHECKPOINT_EVERY = 5_000;
/** The one line of the big log that reads as a failure (1-based). */
export const FAILURE_LINE = 123_457;
export const LONG_LINE_CHARS = 10 * 1024 * 1024;
export const TASK = "log-task";
export const TRIAL = "log-task__oracle1";

/** Line n (1-based) of the big log: a clock, a coloured level, a counter (~72 bytes). */
export function bigLine(n: number): string {
  if (n === BIG_LINES) return `\x1b[1mend of log\x1b[0m after ${n} lines`;
  if (n === FAILURE_LINE) return `\x1b[1;31mFAILED\x1b[0m tests/test_outputs.py::test_big - AssertionError: line ${n}`;
  const clock = `00:${String(Math.floor(n / 60) % 60).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}`;
  const level = n % 97 === 0 ? "\x1b[33mWARN\x1b[0m" : "\x1b[32mINFO\x1b[0m";
  const tail = n % CHECKPOINT_EVERY === 0 ? " \x1b[36mcheckpoint reached\x1b[0m" : "";
  return `${clock} ${level} step ${n}/${BIG_LINES} item \x1b[38;5;208m#${n}\x1b[0m ok${tail}`;
}

function writeBigLog(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, "w");
  try {
    for (let start = 1; start <= BIG_LINES; start += 10_000) {
      const parts: string[] = [];
      for (let n = start; n < start + 10_000 && n <= BIG_LINES; n++) parts.push(bigLine(n));
      fs.writeSync(fd, `${parts.join("\n")}\n`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes the run into a temp directory and returns it. */
export function writeLogRun(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-logs-"));
  fs.writeFileSync(path.join(dir, "run.json"), JSON.stringify({ name, created_at: "2026-01-01T00:00:00Z", seeds: 1, rounds: 0, solver: { model: "solver-x", k: 4 } }));
  fs.writeFileSync(
    path.join(dir, "lineage.jsonl"),
    `${JSON.stringify({ task_id: TASK, parent_id: null, round: 0, operator: null, status: "accepted", rejection_reason: null, repair_attempts: 0, created_at: "2026-01-01T00:00:00Z" })}\n`,
  );
  writeTask(dir, { id: TASK, parent: null, round: 0 });
  const trial = path.join(dir, "trials", TASK, TRIAL);
  fs.mkdirSync(path.join(trial, "verifier"), { recursive: true });
  fs.mkdirSync(path.join(trial, "agent"), { recursive: true });
  fs.writeFileSync(
    path.join(trial, "result.json"),
    JSON.stringify({
      id: TRIAL,
      task_name: TASK,
      trial_name: TRIAL,
      agent_info: { name: "oracle", model_info: null },
      verifier_result: { rewards: { reward: 1 } },
      exception_info: null,
      started_at: "2026-01-01T00:00:00Z",
      finished_at: "2026-01-01T00:02:00Z",
    }),
  );
  fs.writeFileSync(path.join(trial, "verifier/reward.txt"), "1\n");
  writeBigLog(path.join(trial, "verifier/test-stdout.txt"));
  fs.writeFileSync(path.join(trial, "agent/oracle.txt"), `${"x".repeat(LONG_LINE_CHARS - 1)}y`);
  fs.writeFileSync(
    path.join(trial, "verifier/test-stderr.txt"),
    Buffer.concat([
      Buffer.from("before\n"),
      Buffer.from("nul:\0:end\n"),
      Buffer.from("see \x1b]8;;javascript:alert(document.domain)\x07click me\x1b]8;;\x07 now\n"),
      Buffer.from("\x1b]8;;https://evil.example/x\x1b\\external\x1b]8;;\x1b\\ link\n"),
      Buffer.from("after\n"),
    ]),
  );
  return dir;
}

/** Packs and uploads the run as the signed-in `request`'s user, waits for the import, returns the trial id. */
export async function uploadLogRun(request: APIRequestContext, baseURL: string, name: string): Promise<number> {
  const existing = await findTrial(request, name);
  if (existing !== null) return existing;
  const dir = writeLogRun(name);
  try {
    await uploadRunDirectory(request, dir, name, { headers: { origin: baseURL } });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const id = await findTrial(request, name);
  if (id === null) throw new Error(`run ${name} imported without its trial`);
  return id;
}

async function findTrial(request: APIRequestContext, run: string): Promise<number | null> {
  const tasks = (await (await request.get(`/api/v1/tasks?run=${encodeURIComponent(run)}`)).json()) as { items?: { id: number; task_id: string }[] };
  const task = tasks.items?.find((t) => t.task_id === TASK);
  if (!task) return null;
  const trials = (await (await request.get(`/api/v1/tasks/${task.id}/trials`)).json()) as {
    items: { id: number; ext_id: string; logs: { name: string; lines: number }[] }[];
  };
  const trial = trials.items.find((t) => t.ext_id === TRIAL);
  // A run imported from an older version of this fixture does not count.
  return trial?.logs.some((l) => l.name === "verifier/test-stdout.txt" && l.lines === BIG_LINES) ? trial.id : null;
}

export const logUrl = (trialId: number, name: string) => `/trials/${trialId}/logs/${name}`;
