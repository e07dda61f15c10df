// npm run bench:bulk [-- --pg ADMIN_URL --total 68239 --match 10000 --repeat 3 --keep --name DB]
// A bulk decision on ≥ 10,000 tasks in PostgreSQL, timed through the same query functions the
// API calls (preview = dry run, apply = the one transaction). Runs in a scratch database made for
// it and dropped afterwards: a small generated run is ingested for realistic rows (metrics,
// search vectors, indexes), then its task rows and their search vectors are copied in SQL up to
// `--total` rows in a run named "paper", whose round-statistics rollups are built (as the Rounds
// page does), so that each apply also pays their trigger. Nothing outside the scratch database is touched.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase, type Db } from "@/db/client";
import { applyBulkDecision, previewBulk } from "@/db/queries/bulk-review";
import { rebuildRoundRollups } from "@/db/queries/rollups";
import { canonicalFilter } from "@/lib/api/bulk-schemas";
import { CLI_ACTOR } from "@/lib/auth/actor";
import type { ReviewDecision } from "@/lib/domain";
import { ingestPath } from "@/lib/ingest";
import { backendCpu } from "./backend-cpu";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    total: { type: "string", default: "68239" },
    match: { type: "string", default: "10000" },
    repeat: { type: "string", default: "3" },
    source: { type: "string", default: "400" },
    keep: { type: "boolean", default: false },
    /** The scratch database's name (default rst_review_bulk_<pid>). */
    name: { type: "string" },
    /** An existing database prepared by an earlier --keep run (skips generating and copying). */
    reuse: { type: "string" },
  },
});

const ms = (t0: number) => Math.round(performance.now() - t0);

/** A small generated run ingested for realistic rows, then copied in SQL up to `total` rows in run "paper". */
async function prepare(db: Db, work: string): Promise<Record<string, number>> {
  let t0 = performance.now();
  const runDir = path.join(work, "run");
  execFileSync(process.execPath, ["bin/rst-curator.js", "generate", "--out", runDir, "--tasks", args.source, "--name", "source"], { stdio: "ignore" });
  await ingestPath(db, runDir);
  const sourceIngestMs = ms(t0);

  // Copies of the ingested rows, each with its own ext_id, up to `total` rows in run "paper".
  t0 = performance.now();
  await db.execute(sql`INSERT INTO runs (name, format, created_at) SELECT 'paper', format, created_at FROM runs WHERE name = 'source'`);
  const cols = await execRows<{ c: string }>(
    db,
    sql`SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'tasks' AND column_name NOT IN ('id', 'run_id', 'ext_id') ORDER BY ordinal_position`,
  );
  const list = sql.raw(cols.map((c) => `"${c.c}"`).join(", "));
  await db.execute(sql`
    INSERT INTO tasks (run_id, ext_id, ${list})
    SELECT (SELECT id FROM runs WHERE name = 'paper'), t.ext_id || '-c' || g, ${sql.raw(cols.map((c) => `t."${c.c}"`).join(", "))}
    FROM tasks t CROSS JOIN generate_series(1, ceil(${Number(args.total)}::numeric / (SELECT count(*) FROM tasks))::int) g
    WHERE t.run_id = (SELECT id FROM runs WHERE name = 'source')
    ORDER BY g, t.id
    LIMIT ${Number(args.total)}`);
  // Each copy searchable as its original (task_search, migration 0013).
  await db.execute(sql`
    INSERT INTO task_search (task_id, run_id, search)
    SELECT c.id, c.run_id, s.search
    FROM tasks c
    JOIN tasks t ON t.run_id = (SELECT id FROM runs WHERE name = 'source') AND t.ext_id = regexp_replace(c.ext_id, '-c[0-9]+$', '')
    JOIN task_search s ON s.task_id = t.id
    WHERE c.run_id = (SELECT id FROM runs WHERE name = 'paper')`);
  await db.execute(sql`VACUUM ANALYZE tasks, task_search`);
  return { source_ingest_ms: sourceIngestMs, copy_ms: ms(t0) };
}

async function main() {
  const { default: postgres } = await import("postgres");
  const admin = postgres(args.pg, { max: 1, onnotice: () => {} });
  const name = args.reuse ?? args.name ?? `rst_review_bulk_${process.pid}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  if (!args.reuse) await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(args.pg);
  url.pathname = `/${name}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rst-bulk-bench-"));
  const database = await openDatabase({ url: url.toString() });
  const db = database.db;
  const out: Record<string, unknown> = {
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    load_before: os.loadavg().map((x) => x.toFixed(2)),
  };
  try {
    if (!args.reuse) Object.assign(out, await prepare(db, work));
    const [rows] = await execRows<{ n: number; run_id: number; rollups: boolean }>(
      db,
      sql`SELECT count(*)::int AS n, min(run_id) AS run_id, EXISTS (SELECT 1 FROM round_rollup_state s WHERE s.run_id = min(t.run_id)) AS rollups
          FROM tasks t WHERE run_id = (SELECT id FROM runs WHERE name = 'paper')`,
    );
    out.paper_rows = Number(rows?.n);
    let t0 = performance.now();
    // The run's round statistics have been read (the Rounds page): its rollups exist, and every
    // bulk decision updates them in its transaction (the trigger of migration 0010).
    if (!rows?.rollups) {
      await db.transaction(async (tx) => rebuildRoundRollups(tx as unknown as Db, Number(rows?.run_id)));
      out.rollups_build_ms = ms(t0);
    }
    t0 = performance.now();

    // The smallest round_min whose tasks number at least `match`: a filter a reviewer would write.
    const byRound = await execRows<{ round: number; n: number }>(
      db,
      sql`SELECT round, count(*)::int AS n FROM tasks WHERE run_id = (SELECT id FROM runs WHERE name = 'paper') AND status = 'accepted' GROUP BY round ORDER BY round DESC`,
    );
    let acc = 0;
    let roundMin = 0;
    for (const r of byRound) {
      acc += Number(r.n);
      roundMin = Number(r.round);
      if (acc >= Number(args.match)) break;
    }
    const canonical = canonicalFilter(`run=paper&status=accepted&round_min=${roundMin}`);
    if (!canonical.ok) throw new Error(canonical.message);
    const { filter, search } = canonical;
    out.filter = search;

    const decisions: { decision: ReviewDecision; reason: "too easy" | null }[] = [
      { decision: "reject", reason: "too easy" },
      { decision: "accept", reason: null },
      { decision: "skip", reason: null },
    ];
    const timings: Record<string, number | string>[] = [];
    for (let i = 0; i < Number(args.repeat); i++) {
      const d = decisions[i % decisions.length] ?? { decision: "skip" as const, reason: null };
      t0 = performance.now();
      const preview = await previewBulk(db, filter, search);
      const previewMs = ms(t0);
      t0 = performance.now();
      const cpu0 = backendCpu(name);
      const result = await applyBulkDecision(
        db,
        { filter, search, decision: d.decision, reason: d.reason, note: "bench", expectedCount: preview.count, idempotencyKey: `bench-${process.pid}-${i}` },
        CLI_ACTOR,
      );
      const applyMs = ms(t0);
      const applyCpu = Number((backendCpu(name) - cpu0).toFixed(2));
      if (!result.ok) throw new Error(`refused: count ${result.count}`);
      timings.push({ decision: d.decision, count: result.result.count, preview_ms: previewMs, apply_ms: applyMs, apply_db_cpu_s: applyCpu, load_1m: os.loadavg()[0]?.toFixed(2) ?? "" });
      process.stderr.write(`${d.decision}: ${result.result.count} tasks, preview ${previewMs} ms, apply ${applyMs} ms (database CPU ${applyCpu} s)\n`);
    }
    out.runs = timings;
    const [written] = await execRows<{ reviews: number; audit: number }>(
      db,
      sql`SELECT (SELECT count(*)::int FROM reviews) AS reviews, (SELECT count(*)::int FROM audit_log WHERE action IN ('review', 'review.bulk')) AS audit`,
    );
    out.rows_written = written;
    out.load_after = os.loadavg().map((x) => x.toFixed(2));
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await database.close();
    if (!args.keep && !args.reuse) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    else process.stderr.write(`kept database ${name}\n`);
    await admin.end({ timeout: 5 });
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
