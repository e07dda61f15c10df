// npx tsx bench/diff.ts [--pg postgres://…/db] [--pairs 20] [--runs 3]
// Issue 4's parent-diff budget (≤ 50 ms server-side for two ~400-line solutions, step summary
// included), timed on what the diff page calls: lib/data/diff loadDiffView (pair, lineage for the
// picker, both file sets, highlighted whole-file diffs, parsed step summary; the summary and the
// verifier's highlighting in the diff thread) on PostgreSQL.
// Without --pg it generates a small run (its late rounds have ~400-line solutions), ingests it into
// a scratch database with the CLI and drops that afterwards. Prints p50/p95 and writes
// bench/out/diff-*.json.
//   cold:         a pair seen for the first time (every per-content cache emptied first)
//   after parent: the parent's own parent diff was opened just before (a reviewer walking down)
//   warm:         the same pair again
// and the two cold parts that are not queries: the highlighted files and the step summary (parsed,
// and from what the import read of its files, the page's way when the import stored it).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase, useDatabase } from "@/db/client";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { loadDiffView, loadStepReadings, loadTaskTexts, stepReadingsOf } from "@/lib/data/diff";
import { buildDiffPayload } from "@/lib/diff/payload";
import { stepSummary } from "@/lib/diff/summary";
import { clearDiffCaches, useDiffThread } from "@/lib/diff/thread";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string" },
    admin: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    tasks: { type: "string", default: "400" },
    pairs: { type: "string", default: "20" },
    runs: { type: "string", default: "3" },
    out: { type: "string", default: "bench/out" },
  },
});

type Stat = { p50_ms: number; p95_ms: number; cpu_p50_ms: number; main_cpu_mean_ms: number; main_wait_mean_ms: number; n: number };
type Sample = { wall: number; cpu: number; mainCpu: number; mainWait: number };

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

function stat(samples: Sample[]): Stat {
  const wall = samples.map((s) => s.wall).sort((a, b) => a - b);
  const cpu = samples.map((s) => s.cpu).sort((a, b) => a - b);
  const ms = (v: number) => Number(v.toFixed(1));
  const mean = (f: (s: Sample) => number) => ms(samples.reduce((sum, s) => sum + f(s), 0) / Math.max(1, samples.length));
  return {
    p50_ms: ms(pct(wall, 0.5)),
    p95_ms: ms(pct(wall, 0.95)),
    cpu_p50_ms: ms(pct(cpu, 0.5)),
    main_cpu_mean_ms: mean((s) => s.mainCpu),
    main_wait_mean_ms: mean((s) => s.mainWait),
    n: wall.length,
  };
}

/**
 * The main thread's time on a core and waiting for one, in ms (Linux schedstat; NaN elsewhere).
 * Updated by the scheduler at its ticks, so only sums over many samples are exact: reported as means.
 */
function mainThreadSched(): { run: number; wait: number } {
  try {
    const [run, wait] = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
    return { run: (run ?? NaN) / 1e6, wait: (wait ?? NaN) / 1e6 };
  } catch {
    return { run: NaN, wait: NaN };
  }
}

/**
 * Wall time; this process's CPU time, all threads (steadier when other work shares the cores); and
 * the main thread's own CPU and run-queue wait: part of the work runs in the diff thread, so on a
 * free core a pair takes about the main thread's CPU plus the queries' round trips.
 */
async function timed(fn: () => Promise<unknown>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const sched = mainThreadSched();
  const s = performance.now();
  await fn();
  const wall = performance.now() - s;
  const used = process.cpuUsage(cpu);
  const after = mainThreadSched();
  return { wall, cpu: (used.user + used.system) / 1000, mainCpu: after.run - sched.run, mainWait: after.wait - sched.wait };
}

/** Empties the per-content caches of this thread and of the diff thread. */
async function forget(): Promise<void> {
  await clearDiffCaches();
}

/** A fresh database holding a generated run, or null when --pg names one already ingested. */
function scratchDatabase(): { url: string; drop: () => void } | null {
  if (args.pg) return null;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rst-bench-diff-"));
  const runDir = path.join(work, "run");
  const name = `rst_bench_diff_${process.pid}`;
  const url = new URL(args.admin);
  url.pathname = `/${name}`;
  const cli = (cliArgs: string[], env: Record<string, string> = {}) =>
    execFileSync(process.execPath, ["bin/rst-curator.js", ...cliArgs], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  process.stderr.write(`generating ${args.tasks} accepted tasks and ingesting them into ${name} …\n`);
  cli(["generate", "--out", runDir, "--tasks", String(args.tasks), "--seed", "1", "--name", "bench-diff"]);
  execFileSync("psql", [args.admin, "-qc", `CREATE DATABASE ${name}`]);
  const drop = () => {
    execFileSync("psql", [args.admin, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
    fs.rmSync(work, { recursive: true, force: true });
  };
  try {
    cli(["ingest", runDir], { DATABASE_URL: url.toString() });
  } catch (err) {
    drop();
    throw err;
  }
  return { url: url.toString(), drop };
}

async function main(): Promise<void> {
  const scratch = scratchDatabase();
  const database = await openDatabase({ url: scratch?.url ?? args.pg, migrate: false });
  useDatabase(database);
  try {
    // Accepted children of accepted parents, both solutions (solve.sh, lines of text) near 400.
    const pairs = await execRows<{ id: number; parent_id: number; lines: number; parent_lines: number }>(
      database.db,
      sql`WITH sol AS (
            SELECT f.task_id, length(b.content) - length(replace(b.content, E'\n', '')) AS lines
            FROM task_files f JOIN blobs b ON b.hash = f.blob_hash WHERE f.path = 'solution/solve.sh')
          SELECT t.id, t.parent_id, s.lines::int AS lines, ps.lines::int AS parent_lines
          FROM tasks t JOIN tasks p ON p.id = t.parent_id JOIN sol s ON s.task_id = t.id JOIN sol ps ON ps.task_id = p.id
          WHERE t.status = 'accepted' AND p.status = 'accepted' AND p.parent_id IS NOT NULL
          ORDER BY abs(s.lines - 400) + abs(ps.lines - 400), t.id LIMIT ${Number(args.pairs)}`,
    );
    if (pairs.length === 0) throw new Error("no parent/child pairs in this database");
    const view = (id: number) => loadDiffView(CLI_ACTOR, id, null);

    // The very first call of the process loads the grammars (shiki, tree-sitter): once per server.
    const first = pairs[0];
    const processStart = first ? await timed(() => view(first.id)) : { wall: 0, cpu: 0, mainCpu: 0, mainWait: 0 };

    const cold: Sample[] = [];
    const coldInline: Sample[] = [];
    const afterParent: Sample[] = [];
    const warm: Sample[] = [];
    for (let r = 0; r < Number(args.runs); r++) {
      for (const p of pairs) {
        // The same cold pair all in one thread, just before: the two under the same load.
        await forget();
        useDiffThread(false);
        coldInline.push(await timed(() => view(p.id)));
        useDiffThread(true);
        await forget();
        cold.push(await timed(() => view(p.id)));
        warm.push(await timed(() => view(p.id)));
        await forget();
        await view(p.parent_id);
        afterParent.push(await timed(() => view(p.id)));
      }
    }
    // Where a cold pair's time goes: its files highlighted, its step summary parsed (CPU only: the
    // parts run on the files already read, so the rest of the cold total is the queries).
    const highlight: Sample[] = [];
    const summary: Sample[] = [];
    const summaryRead: Sample[] = [];
    for (let r = 0; r < Number(args.runs); r++) {
      for (const p of pairs) {
        const [a, b, known] = await Promise.all([
          loadTaskTexts(CLI_ACTOR, p.parent_id),
          loadTaskTexts(CLI_ACTOR, p.id),
          loadStepReadings(CLI_ACTOR, [p.parent_id, p.id]),
        ]);
        await forget();
        highlight.push(await timed(() => buildDiffPayload(a.files, b.files, new Set([...a.binary, ...b.binary]))));
        await forget();
        summary.push(await timed(() => stepSummary(a.files, b.files)));
        await forget();
        summaryRead.push(await timed(() => stepSummary(a.files, b.files, stepReadingsOf(known, a, b))));
      }
    }
    const lines = pairs.flatMap((p) => [p.lines, p.parent_lines]).sort((a, b) => a - b);
    const results = {
      "first call of the process (grammars load)": stat([processStart]),
      "parent diff, cold (nothing cached)": stat(cold),
      "  the same in one thread (no diff thread)": stat(coldInline),
      "parent diff, parent's diff opened just before": stat(afterParent),
      "parent diff, warm (same pair again)": stat(warm),
      "  cold part: highlighted files (buildDiffPayload)": stat(highlight),
      "  cold part: step summary, files parsed (stepSummary)": stat(summary),
      "  cold part: step summary from the import's readings": stat(summaryRead),
    };
    const w = Math.max(...Object.keys(results).map((k) => k.length));
    process.stdout.write(`${pairs.length} pairs, solutions of ${lines[0]}–${lines[lines.length - 1]} lines, ${args.runs} rounds; load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
    for (const [k, v] of Object.entries(results)) {
      process.stdout.write(`${k.padEnd(w)}  p50 ${v.p50_ms.toFixed(1).padStart(7)} ms  p95 ${v.p95_ms.toFixed(1).padStart(7)} ms  CPU p50 ${v.cpu_p50_ms.toFixed(1).padStart(7)} ms  main thread: CPU ${v.main_cpu_mean_ms.toFixed(1).padStart(6)} ms, waiting ${v.main_wait_mean_ms.toFixed(1).padStart(6)} ms (means)  (n ${v.n})\n`);
    }
    fs.mkdirSync(args.out, { recursive: true });
    const file = path.join(args.out, `diff-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify(
        { at: new Date().toISOString(), database: database.where, pairs: pairs.length, solution_lines: lines, machine: { cpus: os.cpus().length, node: process.version, load: os.loadavg() }, results },
        null,
        2,
      ) + "\n",
    );
    process.stderr.write(`results written to ${file}\n`);
  } finally {
    await database.close();
    scratch?.drop();
  }
}

await main();
