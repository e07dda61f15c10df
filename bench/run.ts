// npm run bench [-- --tasks 37484 --skip-pglite --keep] [-- --run DIR]
// Generate a paper-scale run, ingest it into PostgreSQL and into PGlite, and time task-table
// queries, lineage (bench/lineage.ts) and parent diffs (bench/diff.ts) on PostgreSQL. Each step
// runs as its own process so its peak memory is its own.
// --run DIR reuses a run generated earlier (generating 2M files takes minutes); it is imported
// under the name "bench" like a generated one.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/db/client";
import { listTasks } from "@/db/queries/tasks";
import type { TaskFilter } from "@/lib/tasks/filter";
import { cli } from "./cli-step";

const { values: args } = parseArgs({
  options: {
    tasks: { type: "string", default: "37484" },
    seed: { type: "string", default: "1" },
    "skip-pglite": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    run: { type: "string" },
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
  },
});

const work = fs.mkdtempSync(path.join(os.tmpdir(), "rst-bench-"));
const runDir = args.run ? path.resolve(args.run) : path.join(work, "run");
const results: Record<string, unknown> = {
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  tasks: Number(args.tasks),
};

/** One of the benchmark scripts against the ingested database; its table goes into the results. */
function script(label: string, file: string, pg: string): string[] {
  const r = spawnSync(process.execPath, ["--import", "tsx", file, "--pg", pg], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${label} failed (${r.status}):\n${r.stderr}`);
  process.stderr.write(`${label}:\n${r.stdout}`);
  return r.stdout.trim().split("\n");
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i] ?? 0;
}

const QUERIES: [string, TaskFilter][] = [
  ["default (round asc)", { run: "bench", limit: 50 }],
  ["round 12, accepted", { run: "bench", round: 12, status: "accepted", limit: 50 }],
  ["rounds 5-15, sort -solution_lines", { run: "bench", round_min: 5, round_max: 15, sort: "-solution_lines", limit: 50 }],
  ["operator filter, sort pass@k", { run: "bench", operator: "__OP__", sort: "pass_at_k", limit: 50 }],
  ["metric ranges", { run: "bench", solution_lines_min: 200, commands_max: 200, pass_at_k_max: 0.5, limit: 50 }],
  ["full-text 'sqlite3'", { run: "bench", q: "sqlite3", limit: 50 }],
  ["full-text 'pytest' (every task)", { run: "bench", q: "pytest", limit: 50 }],
  ["full-text 'crontab' + round 10", { run: "bench", q: "crontab", round: 10, limit: 50 }],
  ["deep page (offset 20000)", { run: "bench", limit: 50, cursor: Buffer.from("o:20000").toString("base64url") }],
  ["sort -commands, rejected", { run: "bench", status: "rejected", sort: "-commands", limit: 50 }],
];

async function queryBench(url: string): Promise<Record<string, { p50_ms: number; p95_ms: number }>> {
  const database = await openDatabase({ url });
  const out: Record<string, { p50_ms: number; p95_ms: number }> = {};
  try {
    const facet = await listTasks(database.db, { run: "bench", round: 5, limit: 1 });
    const op = facet.items[0]?.operator ?? "none";
    for (const [name, filter0] of QUERIES) {
      const filter = filter0.operator === "__OP__" ? { ...filter0, operator: op } : filter0;
      await listTasks(database.db, filter); // warm
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t = performance.now();
        await listTasks(database.db, filter);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      out[name] = { p50_ms: Number(percentile(times, 0.5).toFixed(1)), p95_ms: Number(percentile(times, 0.95).toFixed(1)) };
      process.stderr.write(`  query ${name}: p50 ${out[name].p50_ms} ms, p95 ${out[name].p95_ms} ms\n`);
    }
  } finally {
    await database.close();
  }
  return out;
}

async function main(): Promise<void> {
  if (args.run) results.reused_run = runDir;
  else results.generate = cli("generate", ["generate", "--out", runDir, "--tasks", String(args.tasks), "--seed", String(args.seed), "--name", "bench"]);
  results.candidates = (await fs.promises.readFile(path.join(runDir, "lineage.jsonl"), "utf8")).split("\n").filter((l) => l.trim() !== "").length;
  results.run_dir_mb = Math.round(Number(execFileSync("du", ["-sm", runDir], { encoding: "utf8" }).split("\t")[0]));

  const dbName = `rst_bench_${process.pid}`;
  const admin = new URL(args.pg);
  const pgUrl = new URL(args.pg);
  pgUrl.pathname = `/${dbName}`;
  execFileSync("psql", [admin.toString(), "-qc", `CREATE DATABASE ${dbName}`]);
  try {
    results.ingest_postgres = cli("ingest → PostgreSQL", ["ingest", runDir, "--run", "bench"], { DATABASE_URL: pgUrl.toString() });
    results.reingest_postgres = cli("re-ingest (unchanged) → PostgreSQL", ["ingest", runDir, "--run", "bench"], { DATABASE_URL: pgUrl.toString() });
    results.stats_postgres = cli("stats --json", ["stats", "--run", "bench", "--json"], { DATABASE_URL: pgUrl.toString() });
    results.queries_postgres = await queryBench(pgUrl.toString());
    results.lineage_postgres = script("lineage", "bench/lineage.ts", pgUrl.toString());
    results.diff_postgres = script("parent diff", "bench/diff.ts", pgUrl.toString());
  } finally {
    execFileSync("psql", [admin.toString(), "-qc", `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]);
  }
  if (!args["skip-pglite"]) {
    results.ingest_pglite = cli("ingest → PGlite", ["ingest", runDir, "--run", "bench"], { DATABASE_URL: "", PGLITE_DIR: path.join(work, "pglite") });
  }
  const outDir = path.resolve("bench/out");
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `results-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`);
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
  process.stderr.write(`results written to ${file}\n`);
  if (!args.keep) fs.rmSync(work, { recursive: true, force: true });
}

await main();
