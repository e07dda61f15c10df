// npx tsx bench/rounds.ts --pg URL --run NAME [--repeat 7]
// Times every round statistic of the Rounds page on an existing database, cold (the in-process
// cache emptied before each call) and cached. Read only: migrations are not run and every
// connection is opened with default_transaction_read_only.
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase } from "@/db/client";
import { getRoundDataVersion, listSeedFamilies } from "@/db/queries/stats";
import { getFacets } from "@/db/queries/tasks";
import type { RoundSliceJson } from "@/lib/api/types";
import { clearRoundCache, computeRoundDetail } from "@/lib/data/rounds";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    run: { type: "string" },
    repeat: { type: "string", default: "7" },
  },
});

function readOnly(url: string): string {
  const u = new URL(url);
  u.searchParams.set("default_transaction_read_only", "on");
  return u.toString();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main() {
  const database = await openDatabase({ url: readOnly(args.pg), migrate: false });
  const { db } = database;
  try {
    const [ro] = await execRows<{ default_transaction_read_only: string }>(db, sql`SHOW default_transaction_read_only`);
    process.stderr.write(`read only: ${JSON.stringify(ro)}\n`);
    const run = args.run;
    if (!run) throw new Error("--run NAME is required");
    const version = await getRoundDataVersion(db, run);
    if (!version) throw new Error(`no run named ${run}`);
    const counts = await execRows<{ tasks: number; trials: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM tasks WHERE run_id = ${version.runId})::int AS tasks, (SELECT count(*) FROM trials WHERE run_id = ${version.runId})::int AS trials`,
    );
    const facets = await getFacets(db, run);
    const seeds = await listSeedFamilies(db, run, 1);
    const slices: [string, RoundSliceJson][] = [
      ["whole run", {}],
      ["category", { category: facets.categories[0] ?? "none" }],
      ["operator", { operator: facets.operators[0] ?? "none" }],
      ["seed family", { root: seeds[0]?.id ?? 1 }],
      ["review state", { review: "unreviewed" }],
    ];
    const repeat = Number(args.repeat);
    const rows: Record<string, unknown>[] = [];
    for (const [label, slice] of slices) {
      clearRoundCache();
      const first = await time(() => computeRoundDetail(db, run, slice));
      const cold: number[] = [];
      for (let i = 0; i < repeat; i++) {
        clearRoundCache();
        cold.push(await time(() => computeRoundDetail(db, run, slice)));
      }
      const cached: number[] = [];
      for (let i = 0; i < repeat * 3; i++) cached.push(await time(() => computeRoundDetail(db, run, slice)));
      rows.push({ slice: label, first_ms: Math.round(first), cold_median_ms: Math.round(median(cold)), cold_max_ms: Math.round(Math.max(...cold)), cached_median_ms: +median(cached).toFixed(2), cached_max_ms: +Math.max(...cached).toFixed(2) });
    }
    const dataVersion: number[] = [];
    for (let i = 0; i < repeat * 3; i++) dataVersion.push(await time(() => getRoundDataVersion(db, run)));
    console.log(JSON.stringify({ run, where: database.where, counts: counts[0], data_version_median_ms: +median(dataVersion).toFixed(2), slices: rows }, null, 2));
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
