// npx tsx bench/queries.ts --pg postgres://…/db [--run NAME] [--runs 30] [--label TEXT] [--sweep]
// Times the task-table queries (listTasks, getFacets) against an already ingested PostgreSQL
// database: p50/p95 over --runs runs each, after one warm-up. Prints a table and writes JSON to
// bench/out/queries-*.json. Unlike bench/run.ts it neither generates nor ingests anything.
// --sweep: instead, every sort column in both directions, within the run and across all runs,
// without a search and with a word found in most tasks (112 queries; use fewer --runs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase, type Db } from "@/db/client";
import { getFacets, listTasks } from "@/db/queries/tasks";
import { SORT_COLUMNS, type TaskFilter } from "@/lib/tasks/filter";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string" },
    run: { type: "string" },
    runs: { type: "string", default: "30" },
    label: { type: "string", default: "" },
    sweep: { type: "boolean", default: false },
    out: { type: "string", default: "bench/out" },
  },
});

if (!args.pg) {
  process.stderr.write("usage: npx tsx bench/queries.ts --pg postgres://user@host:port/db [--run NAME] [--runs 30] [--label TEXT]\n");
  process.exit(2);
}

const at = (offset: number) => Buffer.from(`o:${offset}`).toString("base64url");

/** The queries of docs/benchmarks.md plus the ones the 100 ms budget is most at risk from. */
type Query = TaskFilter | "facets" | "facets-all";

function queries(run: string, operator: string, extId: string): [string, Query][] {
  return [
    ["default (round asc)", { run, limit: 50 }],
    ["round 12, accepted", { run, round: 12, status: "accepted", limit: 50 }],
    ["rounds 5-15, sort -solution_lines", { run, round_min: 5, round_max: 15, sort: "-solution_lines", limit: 50 }],
    ["operator, sort pass@k", { run, operator, sort: "pass_at_k", limit: 50 }],
    ["metric ranges", { run, solution_lines_min: 200, commands_max: 200, pass_at_k_max: 0.5, limit: 50 }],
    ["full-text 'sqlite3'", { run, q: "sqlite3", limit: 50 }],
    ["full-text 'sqlite3', sort -solution_lines", { run, q: "sqlite3", sort: "-solution_lines", limit: 50 }],
    ["full-text 'sqlite3', page 40", { run, q: "sqlite3", limit: 50, cursor: at(2000) }],
    // A word in every task (every verifier imports pytest): the most matches a word can have.
    ["full-text 'pytest' (every task)", { run, q: "pytest", limit: 50 }],
    ["full-text 'pytest', page 40", { run, q: "pytest", limit: 50, cursor: at(2000) }],
    ["full-text 'crontab' + round 10", { run, q: "crontab", round: 10, limit: 50 }],
    ["full-text 'crontab', all runs", { q: "crontab", limit: 50 }],
    ["task id as search, all runs", { q: extId, limit: 50 }],
    ["full-text phrase 'set -euo pipefail'", { run, q: '"set -euo pipefail"', limit: 50 }],
    ["full-text phrase, words never adjacent '\"pipefail sqlite3\"'", { run, q: '"pipefail sqlite3"', limit: 50 }],
    ["full-text two words anywhere 'pipefail sqlite3'", { run, q: "pipefail sqlite3", limit: 50 }],
    ["full-text phrase, words never adjacent '\"useradd -m\"'", { run, q: '"useradd -m"', limit: 50 }],
    ["full-text phrase 'tar -czf'", { run, q: '"tar -czf"', limit: 50 }],
    ["full-text phrase 'git init'", { run, q: '"git init"', limit: 50 }],
    ["deep page (offset 20000)", { run, limit: 50, cursor: at(20000) }],
    ["deep page (offset 60000)", { run, limit: 50, cursor: at(60000) }],
    ["deep page, sort -solution_lines (offset 20000)", { run, sort: "-solution_lines", limit: 50, cursor: at(20000) }],
    ["rejected, sort -commands", { run, status: "rejected", sort: "-commands", limit: 50 }],
    ["all runs, no filter", { limit: 50 }],
    ["all runs, full-text 'sqlite3', sort -instruction_words", { q: "sqlite3", sort: "-instruction_words", limit: 50 }],
    ["all runs, full-text 'pytest', sort -instruction_words", { q: "pytest", sort: "-instruction_words", limit: 50 }],
    ["all runs, phrase 'set -euo pipefail'", { q: '"set -euo pipefail"', limit: 50 }],
    ["all runs, phrase + rejected", { q: '"set -euo pipefail"', status: "rejected", limit: 50 }],
    ["all runs, phrase never adjacent '\"pipefail sqlite3\"'", { q: '"pipefail sqlite3"', limit: 50 }],
    ["facets (run)", "facets"],
    ["facets (all runs)", "facets-all"],
  ];
}

/** Every sort column, both directions, in the run and across runs, with and without a common word. */
function sweep(run: string): [string, Query][] {
  const out: [string, Query][] = [];
  for (const scope of [run, undefined])
    for (const q of [undefined, "pytest"])
      for (const column of SORT_COLUMNS)
        for (const sort of [column, `-${column}`])
          out.push([`${scope ? "run" : "all runs"}${q ? `, '${q}'` : ""}, sort ${sort}`, { run: scope, q, sort, limit: 50 }]);
  return out;
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i] ?? 0;
}

async function once(db: Db, run: string, q: Query): Promise<{ ms: number; total?: number; estimate?: boolean; rows?: number }> {
  const t = performance.now();
  if (q === "facets" || q === "facets-all") {
    await getFacets(db, q === "facets" ? run : undefined);
    return { ms: performance.now() - t };
  }
  const r = await listTasks(db, q);
  const ms = performance.now() - t;
  return { ms, total: r.total, estimate: (r as { total_is_estimate?: boolean }).total_is_estimate === true, rows: r.items.length };
}

async function main(): Promise<void> {
  const runs = Number(args.runs);
  const database = await openDatabase({ url: args.pg, migrate: false });
  const db = database.db;
  try {
    const [biggest] = await execRows<{ name: string }>(
      db,
      sql`SELECT r.name FROM runs r JOIN tasks t ON t.run_id = r.id GROUP BY r.name ORDER BY count(*) DESC LIMIT 1`,
    );
    const run = args.run ?? biggest?.name;
    if (!run) throw new Error("no runs in this database");
    const [counts] = await execRows<{ tasks: number; accepted: number }>(
      db,
      sql`SELECT count(*)::int AS tasks, count(*) FILTER (WHERE status = 'accepted')::int AS accepted FROM tasks`,
    );
    const facets = await getFacets(db, run);
    const operator = facets.operators[Math.floor(facets.operators.length / 2)] ?? "none";
    const [mid] = await execRows<{ ext_id: string }>(
      db,
      sql`SELECT ext_id FROM tasks WHERE run_id = (SELECT id FROM runs WHERE name = ${run}) ORDER BY id OFFSET 1000 LIMIT 1`,
    );
    const extId = mid?.ext_id ?? "none";
    process.stderr.write(`run ${run}: ${counts?.tasks} task rows (${counts?.accepted} accepted), operator ${operator}, ${runs} runs each\n`);

    const results: Record<string, { p50_ms: number; p95_ms: number; max_ms: number; total?: number; total_is_estimate?: boolean; rows?: number }> = {};
    for (const [name, q] of args.sweep ? sweep(run) : queries(run, operator, extId)) {
      const first = await once(db, run, q); // warm-up, not counted
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push((await once(db, run, q)).ms);
      times.sort((a, b) => a - b);
      results[name] = {
        p50_ms: Number(percentile(times, 0.5).toFixed(1)),
        p95_ms: Number(percentile(times, 0.95).toFixed(1)),
        max_ms: Number((times[times.length - 1] ?? 0).toFixed(1)),
        ...(first.total === undefined ? {} : { total: first.total, total_is_estimate: first.estimate, rows: first.rows }),
      };
    }

    const w = Math.max(...Object.keys(results).map((k) => k.length));
    const lines = [`${"query".padEnd(w)}  ${"p50 ms".padStart(8)}  ${"p95 ms".padStart(8)}  ${"max ms".padStart(8)}  total`];
    for (const [name, r] of Object.entries(results)) {
      const total = r.total === undefined ? "" : `${r.total.toLocaleString("en-US")}${r.total_is_estimate ? " (estimate)" : ""}`;
      lines.push(`${name.padEnd(w)}  ${r.p50_ms.toFixed(1).padStart(8)}  ${r.p95_ms.toFixed(1).padStart(8)}  ${r.max_ms.toFixed(1).padStart(8)}  ${total}`);
    }
    process.stdout.write(lines.join("\n") + "\n");

    const outDir = path.resolve(args.out);
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `queries-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`);
    const doc = {
      label: args.label,
      at: new Date().toISOString(),
      database: database.where,
      run,
      task_rows: counts?.tasks,
      accepted: counts?.accepted,
      runs,
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version, load: os.loadavg() },
      queries: results,
    };
    fs.writeFileSync(file, JSON.stringify(doc, null, 2) + "\n");
    process.stderr.write(`results written to ${file}\n`);
  } finally {
    await database.close();
  }
}

await main();
