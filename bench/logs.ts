// npx tsx bench/logs.ts [--pg postgres://…/postgres] [--mb 50] [--runs 50]
// Issue 5's log budgets: a run whose one trial has a ~50 MB verifier log (ANSI colours, an error
// every 5,000 lines) is imported into a scratch PostgreSQL database (created and dropped here)
// and into an in-memory PGlite; then random 1,000-line windows, the first and the last window,
// and in-log searches are timed through the same functions the API route calls.
// Prints p50/p95 and writes bench/out/logs-*.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type Database } from "@/db/client";
import { findTaskIds } from "@/db/queries/tasks";
import { getLogMeta, listTaskTrials, readLogRange, searchLog } from "@/db/queries/trials";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun, writeTrialFiles } from "@/lib/ingest/fixtures";
import { LogSearch } from "@/lib/log/search";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    mb: { type: "string", default: "50" },
    runs: { type: "string", default: "50" },
    out: { type: "string", default: "bench/out" },
    "skip-pglite": { type: "boolean", default: false },
  },
});

const LOG = "verifier/test-stdout.txt";

/** Build-log-like lines with colours; every 5,000th an error. */
function writeBigLog(dir: string, bytes: number): number {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line =
      i % 5000 === 0
        ? `\x1b[1;31mERROR\x1b[0m step ${i}: command exited with status 1`
        : `\x1b[32m[${String(i).padStart(7)}]\x1b[0m compiling src/module_${i % 97}/unit_${i % 13}.c -> build/obj_${i}.o ... ok (${(i % 17) * 3} ms)`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  writeTrialFiles(path.join(dir, "trials", "b1", "big-log"), {
    "result.json": JSON.stringify({ trial_name: "big-log", task_name: "b1", agent_info: { name: "oracle" }, verifier_result: { rewards: { reward: 1 } } }),
    [LOG]: `${lines.join("\n")}\n`,
  });
  return lines.length;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

async function time(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ p50_ms: number; p95_ms: number; max_ms: number }> {
  await fn(0);
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn(i);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { p50_ms: Number(pct(t, 0.5).toFixed(1)), p95_ms: Number(pct(t, 0.95).toFixed(1)), max_ms: Number((t[t.length - 1] ?? 0).toFixed(1)) };
}

async function measure(database: Database, runDir: string, lines: number, runs: number) {
  const db = database.db;
  const started = performance.now();
  await ingestPath(db, runDir, { threads: 0 });
  const ingestSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  const b1 = (await findTaskIds(db, "logs-bench", ["b1"])).get("b1") ?? 0;
  const trial = (await listTaskTrials(db, b1))?.find((t) => t.ext_id === "big-log");
  const meta = trial ? await getLogMeta(db, trial.id, LOG) : null;
  if (!meta) throw new Error("the big log was not imported");
  // A fixed pseudo-random sequence of window starts, the same on both databases.
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const results = {
    ingest_seconds: ingestSeconds,
    lines: meta.lines,
    bytes: meta.bytes,
    random_1000_line_window: await time(runs, () => {
      const from = next() % (lines - 1000);
      return readLogRange(db, meta, from, from + 1000);
    }),
    first_window: await time(runs, () => readLogRange(db, meta, 0, 1000)),
    last_window: await time(runs, () => readLogRange(db, meta, lines - 1000, lines)),
    search_literal: await time(5, () => searchLog(db, meta, new LogSearch({ q: "exited with status", regex: false, caseSensitive: false }))),
    search_regex: await time(5, () => searchLog(db, meta, new LogSearch({ q: "unit_1[0-2]\\.c.*\\(4[25] ms\\)", regex: true, caseSensitive: true }))),
  };
  return results;
}

async function main(): Promise<void> {
  const runDir = writeFixtureRun("logs-bench");
  const lines = writeBigLog(runDir, Number(args.mb) * 1024 * 1024);
  const runs = Number(args.runs);
  const out: Record<string, unknown> = {
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version, load: os.loadavg() },
    log_mb: Number(args.mb),
  };
  const adminUrl = new URL(args.pg);
  const name = `rst_bench_logs_${process.pid}`;
  const { default: postgres } = await import("postgres");
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const pg = await openDatabase({ url: url.toString(), migrate: true });
    try {
      out.postgres = await measure(pg, runDir, lines, runs);
    } finally {
      await pg.close();
    }
  } finally {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
  if (!args["skip-pglite"]) {
    const lite = await openDatabase({ pgliteDir: "memory://", migrate: true });
    try {
      out.pglite = await measure(lite, runDir, lines, runs);
    } finally {
      await lite.close();
    }
  }
  fs.rmSync(runDir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  fs.mkdirSync(args.out, { recursive: true });
  fs.writeFileSync(path.join(args.out, `logs-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`), `${JSON.stringify(out, null, 2)}\n`);
}

void main();
