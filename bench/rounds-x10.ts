// npx tsx bench/rounds-x10.ts --pg URL --run NAME [--times 10] [--repeat 10] [--settle vacuum|analyze|none] [--keep]
// The round statistics of bench/rounds.ts at ten times a run's size, without generating or
// importing anything: a scratch schema gets copies of the tables the statistics read (with their
// indexes), and the run's tasks and trials are inserted --times times into one run, ids offset
// per copy so that parent, root and path stay consistent within each copy. The bench connects
// with that schema first on its search_path, and drops the schema at the end, also on failure.
// --settle: what runs after the copy: VACUUM (ANALYZE) (the default: as once autovacuum has been
// by), ANALYZE (as right after an import, which ends with ANALYZE), or nothing.
// The run's round rollups (db/queries/rollups.ts) are then built in the scratch schema, as an
// import would build them, and the build is timed; --no-rollups leaves them out, and the
// statistics are then computed from the tasks (the bench's connection is read only).
// --keep leaves the schema for EXPLAIN (SET search_path = rst_bench_x10, public); the next run
// drops it.
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase, type Db } from "@/db/client";
import { buildRollups, measureRounds, readOnly } from "./rounds-measure";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    run: { type: "string" },
    times: { type: "string", default: "10" },
    repeat: { type: "string", default: "10" },
    settle: { type: "string", default: "vacuum" },
    keep: { type: "boolean", default: false },
    "no-rollups": { type: "boolean", default: false },
  },
});

const SCRATCH = "rst_bench_x10";
const TABLES = ["runs", "tasks", "trials", "imports", "reviews", "round_rollup_state", "round_rollup_cells", "round_rollup_values"] as const;

async function columns(db: Db, table: string): Promise<string[]> {
  const rows = await execRows<{ name: string }>(
    db,
    sql`SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`,
  );
  return rows.map((r) => r.name);
}

/** The select list of a copy: `replace` maps a column to its expression, the rest are copied. */
function selectList(cols: string[], replace: Record<string, string>): string {
  return cols.map((c) => replace[c] ?? `"${c}"`).join(", ");
}

/** "/12/57/" with every id moved by k * off. */
const shiftedPath = (off: number) =>
  `(SELECT '/' || string_agg((x::bigint + k * ${off})::text || '/', '' ORDER BY n)
    FROM unnest(string_to_array(btrim(path, '/'), '/')) WITH ORDINALITY u(x, n))`;

async function build(db: Db, run: string, times: number): Promise<void> {
  const [src] = await execRows<{ id: number; task_off: number; trial_off: number }>(
    db,
    sql`SELECT r.id, (SELECT max(id) + 1 FROM public.tasks)::int AS task_off, (SELECT coalesce(max(id), 0) + 1 FROM public.trials)::int AS trial_off
      FROM public.runs r WHERE r.name = ${run}`,
  );
  if (!src) throw new Error(`no run named ${run}`);
  const s = SCRATCH;
  await db.execute(sql.raw(`CREATE SCHEMA ${s}`));
  for (const t of TABLES) await db.execute(sql.raw(`CREATE TABLE ${s}.${t} (LIKE public.${t} INCLUDING ALL EXCLUDING INDEXES)`));
  await db.execute(sql`INSERT INTO ${sql.raw(s)}.runs SELECT * FROM public.runs WHERE id = ${src.id}`);
  await db.execute(sql`INSERT INTO ${sql.raw(s)}.imports SELECT * FROM public.imports WHERE run_id = ${src.id}`);
  const copy = (k: string, col: string, off: number) => `"${col}" + ${k} * ${off}`;
  const suffixed = (col: string) => `CASE WHEN k = 0 THEN "${col}" ELSE "${col}" || '~' || k END`;
  const taskCols = await columns(db, "tasks");
  const taskSelect = selectList(taskCols, {
    id: copy("k", "id", src.task_off),
    parent_id: copy("k", "parent_id", src.task_off),
    root_id: copy("k", "root_id", src.task_off),
    path: shiftedPath(src.task_off),
    ext_id: suffixed("ext_id"),
    parent_ext_id: suffixed("parent_ext_id"),
  });
  const trialCols = await columns(db, "trials");
  const trialSelect = selectList(trialCols, { id: copy("k", "id", src.trial_off), task_id: copy("k", "task_id", src.task_off) });
  // One copy per statement, in id order, as one import would have written them.
  for (let k = 0; k < times; k++) {
    const started = performance.now();
    await db.execute(
      sql.raw(`INSERT INTO ${s}.tasks SELECT ${taskSelect} FROM public.tasks, (SELECT ${k} AS k) c WHERE run_id = ${src.id} ORDER BY id`),
    );
    await db.execute(
      sql.raw(`INSERT INTO ${s}.trials SELECT ${trialSelect} FROM public.trials, (SELECT ${k} AS k) c WHERE run_id = ${src.id} ORDER BY id`),
    );
    process.stderr.write(`copy ${k + 1}/${times}: ${Math.round(performance.now() - started)} ms\n`);
  }
  // The indexes are built after the rows (faster than row by row); full-text ones are left out,
  // the statistics never search.
  const indexes = await execRows<{ tablename: string; indexdef: string }>(
    db,
    sql`SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename IN ${sql.raw(`(${TABLES.map((t) => `'${t}'`).join(", ")})`)}`,
  );
  for (const { tablename, indexdef } of indexes) {
    if (/ USING gin /i.test(indexdef)) continue;
    await db.execute(sql.raw(indexdef.replace(` ON public.${tablename} `, ` ON ${s}.${tablename} `)));
  }
}

async function main() {
  const run = args.run;
  if (!run) throw new Error("--run NAME is required");
  const times = Number(args.times);
  const admin = await openDatabase({ url: args.pg, migrate: false });
  const dropScratch = () => admin.db.execute(sql.raw(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`));
  try {
    await dropScratch(); // left over from an interrupted bench
    await build(admin.db, run, times);
    const settle = { vacuum: "VACUUM (ANALYZE)", analyze: "ANALYZE", none: null }[args.settle ?? "vacuum"];
    if (settle === undefined) throw new Error("--settle is vacuum, analyze or none");
    if (settle) await admin.db.execute(sql.raw(`${settle} ${SCRATCH}.tasks, ${SCRATCH}.trials`));
    const url = new URL(args.pg);
    url.searchParams.set("search_path", `${SCRATCH},public`);
    const rollups = args["no-rollups"] ? null : await buildRollups(url.toString(), run);
    const load = os.loadavg().map((x) => x.toFixed(2));
    const result = await measureRounds({ url: readOnly(url.toString()), run, repeat: Number(args.repeat) });
    console.log(JSON.stringify({ times, settle: args.settle, rollups, load_before: load, load_after: os.loadavg().map((x) => x.toFixed(2)), ...result }, null, 2));
  } finally {
    if (!args.keep) await dropScratch();
    await admin.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
