// npx tsx bench/rounds-trigger.ts --pg URL --run NAME [--rows 10000] [--repeat 3]
// What the round-rollup trigger (migration 0010) costs a writer: an UPDATE of --rows tasks'
// review state, and one that changes no statistics column (open_flags), each with the trigger
// and with it disabled, every one rolled back. Writes nothing that stays, but takes an ACCESS
// EXCLUSIVE lock on tasks for the disabled samples: run it on a benchmark database only.
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase } from "@/db/client";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    run: { type: "string" },
    rows: { type: "string", default: "10000" },
    repeat: { type: "string", default: "3" },
  },
});

class Rollback extends Error {}

async function main() {
  if (!args.run) throw new Error("--run NAME is required");
  const rows = Number(args.rows);
  const database = await openDatabase({ url: args.pg, migrate: false });
  try {
    const { db } = database;
    const [run] = await execRows<{ id: number }>(db, sql`SELECT id FROM runs WHERE name = ${args.run}`);
    if (!run) throw new Error(`no run named ${args.run}`);
    const once = async (trigger: boolean, column: "review_state" | "open_flags"): Promise<number> => {
      let ms = 0;
      try {
        await db.transaction(async (tx) => {
          if (!trigger) await tx.execute(sql`ALTER TABLE tasks DISABLE TRIGGER tasks_round_rollups`);
          const set =
            column === "review_state"
              ? sql`review_state = CASE WHEN review_state = 'accepted' THEN 'rejected' ELSE 'accepted' END`
              : sql`open_flags = open_flags + 1`;
          const started = performance.now();
          await tx.execute(sql`UPDATE tasks SET ${set} WHERE id IN (SELECT id FROM tasks WHERE run_id = ${run.id} ORDER BY id LIMIT ${rows})`);
          ms = performance.now() - started;
          throw new Rollback();
        });
      } catch (err) {
        if (!(err instanceof Rollback)) throw err;
      }
      return Math.round(ms);
    };
    const samples: Record<string, number[]> = {};
    const load = os.loadavg().map((x) => x.toFixed(2));
    for (let i = 0; i < Number(args.repeat); i++) {
      for (const trigger of [true, false]) {
        for (const column of ["review_state", "open_flags"] as const) (samples[`${column}, trigger ${trigger ? "on" : "off"}`] ??= []).push(await once(trigger, column));
      }
    }
    console.log(JSON.stringify({ rows, load_before: load, load_after: os.loadavg().map((x) => x.toFixed(2)), ms: samples }, null, 2));
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
