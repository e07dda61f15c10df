// npx tsx bench/rounds.ts --pg URL --run NAME [--repeat 10] [--build-rollups]
// Times every round statistic of the Rounds page on an existing database, cold and cached (see
// bench/rounds-measure.ts), p50/p95 per slice. Read only: migrations are not run and every
// connection is opened with default_transaction_read_only. bench/rounds-x10.ts does the same at
// ten times the run's size.
// --build-rollups first (re)builds the run's round rollups on a writable connection, as an import
// does at its end, and times it (a database imported before migration 0010 has none, and the
// read-only bench would then compute from the tasks).
import os from "node:os";
import { parseArgs } from "node:util";
import { buildRollups, measureRounds, readOnly } from "./rounds-measure";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    run: { type: "string" },
    repeat: { type: "string", default: "10" },
    "build-rollups": { type: "boolean", default: false },
  },
});

async function main() {
  if (!args.run) throw new Error("--run NAME is required");
  const rollups = args["build-rollups"] ? await buildRollups(args.pg, args.run) : null;
  const load = os.loadavg().map((x) => x.toFixed(2));
  const result = await measureRounds({ url: readOnly(args.pg), run: args.run, repeat: Number(args.repeat) });
  console.log(JSON.stringify({ rollups, load_before: load, load_after: os.loadavg().map((x) => x.toFixed(2)), ...result }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
