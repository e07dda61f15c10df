// npx tsx bench/lineage.ts --pg postgres://…/db [--runs 30]
// Issue 4's budgets on an already ingested database: ancestors + children of tasks at several
// depths, the largest family fetched whole, and the parts of a parent diff (files + diff + step
// summary) of a late-round task; the diff page's data as a whole is bench/diff.ts. Prints p50/p95
// and writes bench/out/lineage-*.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { execRows, openDatabase, type Db } from "@/db/client";
import { getTaskFileSet } from "@/db/queries/files";
import { getLineage } from "@/db/queries/lineage";
import { diffFiles } from "@/lib/diff";
import { clearSummaryCaches, stepSummary } from "@/lib/diff/summary";

const { values: args } = parseArgs({ options: { pg: { type: "string" }, runs: { type: "string", default: "30" }, out: { type: "string", default: "bench/out" } } });
if (!args.pg) {
  process.stderr.write("usage: npx tsx bench/lineage.ts --pg postgres://user@host:port/db [--runs 30]\n");
  process.exit(2);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

async function time(runs: number, fn: () => Promise<unknown>): Promise<{ p50_ms: number; p95_ms: number }> {
  await fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { p50_ms: Number(pct(t, 0.5).toFixed(1)), p95_ms: Number(pct(t, 0.95).toFixed(1)) };
}

async function textFiles(db: Db, id: number): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [p, f] of await getTaskFileSet(db, id)) if (f.encoding === "utf8") out[p] = f.content;
  return out;
}

/**
 * Generated runs have families of at most ~1,000 tasks; the budget names 5,000. This builds one
 * (a ternary tree, 5,000 nodes, rounds 0–15) in a scratch run inside a transaction that is rolled
 * back, so the database is left as it was.
 */
async function syntheticFamily(db: Db, runs: number): Promise<{ p50_ms: number; p95_ms: number }> {
  let result = { p50_ms: 0, p95_ms: 0 };
  await db
    .transaction(async (tx) => {
      const [run] = await execRows<{ id: number }>(tx, sql`INSERT INTO runs (name, format) VALUES ('bench-synthetic-family', 'native') RETURNING id`);
      const [base] = await execRows<{ id: number }>(tx, sql`SELECT coalesce(max(id), 0) + 1000 AS id FROM tasks`);
      const first = Number(base?.id);
      const paths: string[] = [];
      const values = [];
      for (let i = 0; i < 5000; i++) {
        const parent = i === 0 ? null : Math.floor((i - 1) / 3);
        paths[i] = `${parent === null ? "/" : paths[parent]}${first + i}/`;
        const depth = (paths[i]?.split("/").length ?? 2) - 2;
        values.push(sql`(${first + i}, ${run?.id}, ${`syn-${i}`}, ${parent === null ? null : first + parent}, ${first}, ${paths[i]}, ${Math.min(depth, 15)}, ${depth}, 'accepted', ${`h${i}`})`);
      }
      await tx.execute(sql`INSERT INTO tasks (id, run_id, ext_id, parent_id, root_id, path, round, depth, status, content_hash) VALUES ${sql.join(values, sql`, `)}`);
      await tx.execute(sql`ANALYZE tasks`);
      result = await time(runs, () => getLineage(tx as unknown as Db, first, { descendants: true, limit: 20_000 }));
      throw new Rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return result;
}

class Rollback extends Error {}

async function main(): Promise<void> {
  const runs = Number(args.runs);
  const database = await openDatabase({ url: args.pg, migrate: false });
  const db = database.db;
  try {
    const results: Record<string, unknown> = {};
    const [shape] = await execRows<{ tasks: number }>(db, sql`SELECT count(*)::int AS tasks FROM tasks`);
    for (const depth of [1, 7, 14]) {
      const [t] = await execRows<{ id: number }>(db, sql`SELECT id FROM tasks WHERE depth = ${depth} AND status = 'accepted' ORDER BY id LIMIT 1`);
      if (!t) continue;
      results[`ancestors + children, depth ${depth}`] = await time(runs, () => getLineage(db, t.id, { descendants: true, maxDepth: 1 }));
    }
    const [family] = await execRows<{ root_id: number; n: number }>(db, sql`SELECT root_id, count(*)::int AS n FROM tasks GROUP BY root_id ORDER BY count(*) DESC LIMIT 1`);
    if (family) {
      results[`largest family (${family.n} tasks) fetched whole`] = await time(Math.min(runs, 10), () => getLineage(db, family.root_id, { descendants: true, limit: 20_000 }));
    }
    const [late] = await execRows<{ id: number; parent_id: number; lines: number }>(
      db,
      sql`SELECT t.id, t.parent_id, t.solution_lines AS lines FROM tasks t WHERE t.status = 'accepted' AND t.parent_id IS NOT NULL
          ORDER BY abs(coalesce(t.solution_lines, 0) - 400) LIMIT 1`,
    );
    if (late) {
      const label = `${late.lines}-line solution`;
      results[`parent diff of a ${label}: files + diff`] = await time(runs, async () => {
        const [a, b] = await Promise.all([textFiles(db, late.parent_id), textFiles(db, late.id)]);
        diffFiles(a, b);
      });
      const [a, b] = await Promise.all([textFiles(db, late.parent_id), textFiles(db, late.id)]);
      results[`parent diff of a ${label}: diff only`] = await time(runs, async () => diffFiles(a, b));
      results[`parent diff of a ${label}: parsed step summary only, uncached`] = await time(runs, () => {
        clearSummaryCaches();
        return stepSummary(a, b);
      });
      results[`parent diff of a ${label}: step summary from the parse caches`] = await time(runs, () => stepSummary(a, b));
    }
    if (!family || family.n < 5000) {
      results["synthetic family of 5,000 tasks fetched whole"] = await syntheticFamily(db, Math.min(runs, 10));
    }
    const w = Math.max(...Object.keys(results).map((k) => k.length));
    for (const [k, v] of Object.entries(results) as [string, { p50_ms: number; p95_ms: number }][]) {
      process.stdout.write(`${k.padEnd(w)}  p50 ${v.p50_ms.toFixed(1).padStart(7)} ms  p95 ${v.p95_ms.toFixed(1).padStart(7)} ms\n`);
    }
    fs.mkdirSync(args.out, { recursive: true });
    const file = path.join(args.out, `lineage-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({ at: new Date().toISOString(), database: database.where, task_rows: shape?.tasks, runs, machine: { cpus: os.cpus().length, node: process.version, load: os.loadavg() }, results }, null, 2) + "\n",
    );
    process.stderr.write(`results written to ${file}\n`);
  } finally {
    await database.close();
  }
}

await main();
