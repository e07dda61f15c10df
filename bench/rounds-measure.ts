// The measurement shared by bench/rounds.ts (a run as imported) and bench/rounds-x10.ts (the same
// run copied ten times). Cold: a fresh connection (a new server process, so no catalog or plan
// caches) and the in-process cache emptied; the database's shared buffers and the OS page cache
// stay as they are, since the server is shared. Cached: the same call again on one connection.
import { sql } from "drizzle-orm";
import { execRows, openDatabase, type Db } from "@/db/client";
import { rebuildRoundRollups, roundRollupVersion } from "@/db/queries/rollups";
import { getRoundDataVersion, listSeedFamilies } from "@/db/queries/stats";
import { getFacets } from "@/db/queries/tasks";
import type { RoundSliceJson } from "@/lib/api/types";
import { clearRoundCache, computeRoundDetail, computeSeedFamilies } from "@/lib/data/rounds";

export interface MeasureOptions {
  url: string;
  run: string;
  /** cold samples per slice; cached samples are three times as many */
  repeat: number;
}

/** Nearest-rank percentile of a sample. */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const summary = (xs: number[]) => ({ p50: round2(percentile(xs, 0.5)), p95: round2(percentile(xs, 0.95)), max: round2(Math.max(...xs)) });

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Opens a connection and waits until it is established, so that timings exclude the handshake. */
async function connect(url: string) {
  const database = await openDatabase({ url, migrate: false });
  await database.db.execute(sql`SELECT 1`);
  return database;
}

/** Times `fn` on `repeat` fresh connections, the round cache emptied each time. */
async function coldSamples(url: string, repeat: number, fn: (db: Db) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const database = await connect(url);
    try {
      clearRoundCache();
      out.push(await time(() => fn(database.db)));
    } finally {
      await database.close();
    }
  }
  return out;
}

export async function measureRounds({ url, run, repeat }: MeasureOptions): Promise<Record<string, unknown>> {
  const database = await connect(url);
  try {
    const { db } = database;
    const version = await getRoundDataVersion(db, run);
    if (!version) throw new Error(`no run named ${run}`);
    const [counts] = await execRows<{ tasks: number; trials: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM tasks WHERE run_id = ${version.runId})::int AS tasks, (SELECT count(*) FROM trials WHERE run_id = ${version.runId})::int AS trials`,
    );
    const [setting] = await execRows<{ search_path: string; default_transaction_read_only: string }>(
      db,
      sql`SELECT current_setting('search_path') AS search_path, current_setting('default_transaction_read_only') AS default_transaction_read_only`,
    );
    // Without rollups (never built, and this connection may not build them) every slice is
    // computed from the tasks.
    const rollupsPresent = (await roundRollupVersion(db, version.runId)) !== null;
    const facets = await getFacets(db, run);
    const seeds = await listSeedFamilies(db, run, 1);
    const slices: [string, RoundSliceJson][] = [
      ["whole run", {}],
      ["category", { category: facets.categories[0] ?? "none" }],
      ["operator", { operator: facets.operators[0] ?? "none" }],
      ["seed family", { root: seeds[0]?.id ?? 1 }],
      ["review state", { review: "unreviewed" }],
      ["category × operator", { category: facets.categories[0] ?? "none", operator: facets.operators[0] ?? "none" }],
      ["category × review", { category: facets.categories[0] ?? "none", review: "unreviewed" }],
      ["operator × review", { operator: facets.operators[0] ?? "none", review: "unreviewed" }],
      ["category × operator × review", { category: facets.categories[0] ?? "none", operator: facets.operators[0] ?? "none", review: "unreviewed" }],
    ];
    const rows: Record<string, unknown>[] = [];
    for (const [label, slice] of slices) {
      const cold = await coldSamples(url, repeat, (fresh) => computeRoundDetail(fresh, run, slice));
      clearRoundCache();
      await computeRoundDetail(db, run, slice);
      const cached: number[] = [];
      for (let i = 0; i < repeat * 3; i++) cached.push(await time(() => computeRoundDetail(db, run, slice)));
      rows.push({ slice: label, cold_ms: summary(cold), cached_ms: summary(cached) });
      process.stderr.write(`${label}: cold p50 ${summary(cold).p50} ms, p95 ${summary(cold).p95} ms; cached p50 ${summary(cached).p50} ms\n`);
    }
    // The Rounds page also lists the seed families for its menu, on every load.
    const seedCold = await coldSamples(url, repeat, (fresh) => computeSeedFamilies(fresh, run));
    const seedCached: number[] = [];
    for (let i = 0; i < repeat * 3; i++) seedCached.push(await time(() => computeSeedFamilies(db, run)));
    const dataVersion: number[] = [];
    for (let i = 0; i < repeat * 3; i++) dataVersion.push(await time(() => getRoundDataVersion(db, run)));
    return { run, where: database.where, settings: setting, counts, rollups_present: rollupsPresent, slices: rows, seed_families: { cold_ms: summary(seedCold), cached_ms: summary(seedCached) }, data_version_ms: summary(dataVersion) };
  } finally {
    await database.close();
  }
}

/** (Re)builds a run's round rollups on a writable connection (its search_path decides the
 * schema), as an import does at its end, timed; then vacuums them as autovacuum would. */
export async function buildRollups(url: string, run: string): Promise<Record<string, unknown>> {
  const database = await openDatabase({ url, migrate: false });
  try {
    const [row] = await execRows<{ id: number }>(database.db, sql`SELECT id FROM runs WHERE name = ${run}`);
    if (!row) throw new Error(`no run named ${run}`);
    const started = performance.now();
    await database.db.transaction((tx) => rebuildRoundRollups(tx, row.id));
    const ms = Math.round(performance.now() - started);
    await database.db.execute(sql`VACUUM (ANALYZE) round_rollup_cells, round_rollup_values`);
    const [rows] = await execRows<{ cells: number; values: number }>(
      database.db,
      sql`SELECT (SELECT count(*) FROM round_rollup_cells WHERE run_id = ${row.id})::int AS cells,
        (SELECT count(*) FROM round_rollup_values WHERE run_id = ${row.id})::int AS values`,
    );
    process.stderr.write(`rollups: built in ${ms} ms (${rows?.cells} cells, ${rows?.values} histogram rows)\n`);
    return { build_ms: ms, ...rows };
  } finally {
    await database.close();
  }
}

/** The URL with every transaction read only: the measurement never writes. */
export function readOnly(url: string): string {
  const u = new URL(url);
  u.searchParams.set("default_transaction_read_only", "on");
  return u.toString();
}
