// npx tsx bench/checks.ts --pg URL --run NAME [--rounds 1]
// Times the consistency checks on a run already imported: every rule over the whole run (cold
// process, nothing cached), then the incremental check an import of one round triggers (the
// last round's tasks with their parents and children). Writes flags (idempotent: a rerun adds
// none). CPU time is reported beside wall time, since the machine is shared.
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows } from "@/db/client";
import { openDatabase } from "@/db/client";
import { findRun } from "@/db/queries/checks";
import { runChecks } from "@/lib/checks";
import type { Finding } from "@/lib/flags/types";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    run: { type: "string" },
    rounds: { type: "string", default: "1" },
    "skip-full": { type: "boolean", default: false },
    /** checker threads (default: as runChecks decides) */
    threads: { type: "string" },
    /** write every finding of the full check (sorted, one JSON a line) to compare versions */
    dump: { type: "string" },
  },
});

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; wall_s: number; cpu_s: number }> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  return { result, wall_s: (performance.now() - t0) / 1000, cpu_s: (used.user + used.system) / 1e6 };
}

async function main() {
  if (!args.run) throw new Error("--run NAME is required");
  const database = await openDatabase({ url: args.pg });
  try {
    const [run] = await findRun(database.db, args.run);
    if (!run) throw new Error(`no run named ${args.run}`);
    const load = os.loadavg().map((x) => x.toFixed(2));
    const threads = args.threads === undefined ? undefined : Number(args.threads);
    const found: string[] = [];
    const onFindings = (fs: readonly Finding[]) => {
      for (const f of fs) found.push(JSON.stringify({ task: f.taskId, rule: f.rule, severity: f.severity, message: f.message, evidence: f.evidence }));
    };
    const full = args["skip-full"] ? null : await timed(() => runChecks(database.db, { runId: run.id, onFindings, threads }));
    if (args.dump) fs.writeFileSync(args.dump, `${found.sort().join("\n")}\n`);
    const [last] = await execRows<{ r: number }>(database.db, sql`SELECT max(round) AS r FROM tasks WHERE run_id = ${run.id}`);
    const from = Number(last?.r ?? 0) - Number(args.rounds) + 1;
    const ids = (await execRows<{ id: number }>(database.db, sql`SELECT id FROM tasks WHERE run_id = ${run.id} AND round >= ${from}`)).map((r) => Number(r.id));
    const incremental = await timed(() => runChecks(database.db, { runId: run.id, taskIds: ids, threads }));
    const out = {
      run: run.name,
      load_before: load,
      load_after: os.loadavg().map((x) => x.toFixed(2)),
      full: full && { tasks: full.result.tasks, wall_s: +full.wall_s.toFixed(1), cpu_s: +full.cpu_s.toFixed(1), ms_per_task: +((full.wall_s * 1000) / Math.max(1, full.result.tasks)).toFixed(2), counts: full.result.counts },
      incremental: { rounds_from: from, imported_tasks: ids.length, checked_tasks: incremental.result.tasks, wall_s: +incremental.wall_s.toFixed(1), cpu_s: +incremental.cpu_s.toFixed(1) },
    };
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
