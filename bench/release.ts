// npx tsx bench/release.ts RUN_DIR [--pg URL] [--skip-pglite] [--keep]
// The public RST release path end to end at the scale of RUN_DIR (a native run, e.g. the paper-
// scale one): its accepted tasks written as a release (tar shards, parquet, manifest), imported
// into a fresh PostgreSQL database (and PGlite), imported again (nothing new), and their lineage
// inferred through the CLI; the inferred parents are compared with lineage-truth.jsonl.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { writeRelease } from "@/lib/generate/release";
import { confidenceBand } from "@/lib/domain";
import { cli } from "./cli-step";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pg: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    "skip-pglite": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const runDir = positionals[0];
if (!runDir) {
  process.stderr.write("usage: npx tsx bench/release.ts RUN_DIR [--pg URL] [--skip-pglite] [--keep]\n");
  process.exit(2);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "rst-release-bench-"));
const release = path.join(work, "release");
const results: Record<string, unknown> = {
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  run: path.resolve(runDir),
};

interface Truth {
  id: string;
  parent_id: string | null;
}

/** Inferred parents against the truth, by confidence band; a task's right answer is its parent. */
async function accuracy(url: string): Promise<Record<string, unknown>> {
  const truth = new Map(
    fs
      .readFileSync(path.join(release, "lineage-truth.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Truth)
      .map((t) => [t.id, t.parent_id] as const),
  );
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const rows = await sql<{ id: string; parent: string | null; confidence: number | null }[]>`
      select t.ext_id as id, p.ext_id as parent, (t.lineage_inferred->>'confidence')::float8 as confidence
      from tasks t join runs r on r.id = t.run_id left join tasks p on p.id = t.parent_id
      where r.name = 'release'`;
    const bands: Record<string, { right: number; wrong: number }> = { high: { right: 0, wrong: 0 }, medium: { right: 0, wrong: 0 }, low: { right: 0, wrong: 0 } };
    let parentsFound = 0;
    let roots = 0;
    let rootsRight = 0;
    for (const r of rows) {
      const want = truth.get(r.id);
      if (want === undefined) throw new Error(`task ${r.id} is not in lineage-truth.jsonl`);
      if (want === null) {
        roots++;
        if (r.parent === null) rootsRight++;
        continue;
      }
      if (r.parent === want) parentsFound++;
      if (r.parent !== null && r.confidence !== null) bands[confidenceBand(r.confidence)]![r.parent === want ? "right" : "wrong"]++;
    }
    const children = rows.length - roots;
    return { tasks: rows.length, parents_found: parentsFound, parents_total: children, parents_found_pct: Number(((100 * parentsFound) / children).toFixed(1)), roots_right: rootsRight, roots, bands };
  } finally {
    await sql.end();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const written = await writeRelease(path.resolve(runDir as string), release);
  results.write_release = { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), ...written };
  process.stderr.write(`write release: ${JSON.stringify(results.write_release)}\n`);
  const dbName = `rst_release_${process.pid}`;
  const admin = new URL(args.pg);
  const url = new URL(args.pg);
  url.pathname = `/${dbName}`;
  execFileSync("psql", [admin.toString(), "-qc", `CREATE DATABASE ${dbName}`]);
  const env = { DATABASE_URL: url.toString() };
  try {
    results.ingest_postgres = cli("ingest release → PostgreSQL", ["ingest", release, "--run", "release"], env);
    results.reingest_postgres = cli("re-ingest (unchanged) → PostgreSQL", ["ingest", release, "--run", "release"], env);
    results.infer_postgres = cli("lineage infer → PostgreSQL", ["lineage", "infer", "--run", "release"], env);
    results.accuracy = await accuracy(url.toString());
    process.stderr.write(`accuracy: ${JSON.stringify(results.accuracy)}\n`);
  } finally {
    execFileSync("psql", [admin.toString(), "-qc", `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]);
  }
  if (!args["skip-pglite"]) {
    const pglite = { DATABASE_URL: "", PGLITE_DIR: path.join(work, "pglite") };
    results.ingest_pglite = cli("ingest release → PGlite", ["ingest", release, "--run", "release"], pglite);
    results.infer_pglite = cli("lineage infer → PGlite", ["lineage", "infer", "--run", "release"], pglite);
  }
  const outDir = path.resolve("bench/out");
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `release-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`);
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
  process.stderr.write(`results written to ${file}\n`);
  if (!args.keep) fs.rmSync(work, { recursive: true, force: true });
}

await main();
