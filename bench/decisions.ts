// npx tsx bench/decisions.ts --pg postgres://…/db [--decisions 200] [--run NAME] [--offset 0]
// What a single review decision costs the database, statement by statement: `--decisions` calls
// of recordReview (the API's decision) on accepted tasks of an already ingested database, one
// after another, measured with pg_stat_statements (created in that database if missing; the
// server must preload it) and by the CPU its backends used (/proc: a local server). Writes
// reviews and audit rows into that database: use a scratch one.
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase } from "@/db/client";
import { recordReview } from "@/db/queries/reviews";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { backendCpu } from "./backend-cpu";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string" },
    decisions: { type: "string", default: "200" },
    run: { type: "string" },
    /** Which of the evenly spread sets of tasks (0, 1, …): a new one finds pages no decision touched yet. */
    offset: { type: "string", default: "0" },
  },
});

if (!args.pg) {
  process.stderr.write("usage: npx tsx bench/decisions.ts --pg postgres://user@host:port/db [--decisions 200] [--run NAME] [--offset 0]\n");
  process.exit(2);
}

interface Statement {
  query: string;
  calls: number;
  mean_ms: number;
  total_ms: number;
}

async function main(): Promise<void> {
  const database = await openDatabase({ url: args.pg, migrate: false });
  const db = database.db;
  try {
    await db.execute(sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    const n = Number(args.decisions);
    // Spread over the run (not neighbours on one page), each task decided once.
    const picked = await execRows<{ id: number; version: number }>(
      db,
      sql`SELECT id, version FROM (
            SELECT id, version, row_number() OVER (ORDER BY id) AS i, count(*) OVER () AS total FROM tasks
            WHERE status = 'accepted' ${args.run ? sql`AND run_id = (SELECT id FROM runs WHERE name = ${args.run})` : sql``}
          ) t WHERE i % greatest(total / ${n}, 1) = ${Number(args.offset)} % greatest(total / ${n}, 1) LIMIT ${n}`,
    );
    await db.execute(sql`SELECT pg_stat_statements_reset()`);
    const dbName = new URL(args.pg ?? "").pathname.slice(1);
    const db0 = backendCpu(dbName);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let conflicts = 0;
    for (const [i, t] of picked.entries()) {
      const decision = i % 2 === 0 ? "accept" : "reject";
      const r = await recordReview(
        db,
        { taskId: Number(t.id), decision, reason: decision === "reject" ? "too easy" : null, note: null, baseVersion: Number(t.version) },
        CLI_ACTOR,
      );
      if (!r.ok) conflicts++;
    }
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const dbCpu = backendCpu(dbName) - db0;
    const statements = await execRows<Statement>(
      db,
      sql`SELECT left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 90) AS query, calls::int AS calls,
            round(mean_exec_time::numeric, 3)::float AS mean_ms, round(total_exec_time::numeric, 1)::float AS total_ms
          FROM pg_stat_statements
          WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND calls >= ${picked.length}
          ORDER BY total_exec_time DESC`,
    );
    const out = {
      database: database.where,
      decisions: picked.length,
      conflicts,
      wall_ms_per_decision: Number((wallMs / Math.max(picked.length, 1)).toFixed(2)),
      database_cpu_ms_per_decision: Number(((dbCpu * 1000) / Math.max(picked.length, 1)).toFixed(2)),
      client_cpu_ms_per_decision: Number(((cpu.user + cpu.system) / 1000 / Math.max(picked.length, 1)).toFixed(2)),
      load: os.loadavg().map((x) => Number(x.toFixed(2))),
      statements,
    };
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await database.close();
  }
}

await main();
