// Every number of the Rounds page, checked against the same number re-derived from the run
// directory's raw files (lineage, task files, evals, trials) — not from the database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import type { RoundDetailJson, RoundSliceJson } from "@/lib/api/types";
import { NO_REASON } from "@/lib/domain";
import { generateRun } from "@/lib/generate";
import { ingestPath } from "@/lib/ingest";
import { measureTask, passAtK } from "@/lib/metrics";
import { clearRoundCache, computeRoundDetail, computeSeedFamilies } from "@/lib/data/rounds";
import { ROUND_METRICS, PERCENTILES } from "@/lib/rounds/metrics";
import { tasks } from "../schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "../testing";
import { getRoundDetail, getRoundStats, listSeedFamilies } from "./stats";

/** percentile_cont: linear interpolation between the two nearest ranks of the sorted values. */
function percentileCont(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const pos = p * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = s[lo] ?? 0;
  const b = s[hi] ?? 0;
  return a + (b - a) * (pos - lo);
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

interface RawTask {
  id: string;
  parent: string | null;
  root: string;
  round: number;
  status: string;
  reason: string | null;
  operator: string | null;
  category: string | null;
  metrics: Record<string, number | null>;
  passAtK: number | null;
  reward: number | null;
  oracle: (number | null)[];
}

function readJsonl(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function walk(dir: string, rel = ""): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((d) => {
    const r = rel ? `${rel}/${d.name}` : d.name;
    return d.isDirectory() ? walk(dir, r) : [r];
  });
}

/** Reads the raw run directory on its own terms, with the metric parsers of lib/metrics. */
async function readRaw(dir: string): Promise<RawTask[]> {
  const run = JSON.parse(fs.readFileSync(path.join(dir, "run.json"), "utf8")) as { solver: { model: string; k: number } };
  const evals = new Map(readJsonl(path.join(dir, "evals.jsonl")).filter((e) => e.model === run.solver.model).map((e) => [e.task_id as string, e]));
  const lineage = readJsonl(path.join(dir, "lineage.jsonl"));
  const parentOf = new Map(lineage.map((l) => [l.task_id as string, (l.parent_id as string | null) ?? null]));
  const rootOf = (id: string): string => {
    const p = parentOf.get(id);
    return p ? rootOf(p) : id;
  };
  const out: RawTask[] = [];
  for (const l of lineage) {
    const id = l.task_id as string;
    const taskDir = path.join(dir, "tasks", id);
    const files = new Map<string, string>();
    for (const rel of walk(taskDir)) {
      if (rel === "instruction.md" || rel === "solution/solve.sh" || (rel.startsWith("tests/") && rel.endsWith(".py"))) {
        files.set(rel, fs.readFileSync(path.join(taskDir, rel), "utf8"));
      }
    }
    const m = await measureTask(files);
    const toml = fs.readFileSync(path.join(taskDir, "task.toml"), "utf8");
    const category = /^category\s*=\s*"([^"]*)"/m.exec(toml)?.[1] ?? null;
    const ev = evals.get(id);
    const oracle: (number | null)[] = [];
    const trialsDir = path.join(dir, "trials", id);
    if (fs.existsSync(trialsDir)) {
      for (const t of fs.readdirSync(trialsDir)) {
        const checkFile = path.join(trialsDir, t, "check.json");
        const result = JSON.parse(fs.readFileSync(path.join(trialsDir, t, "result.json"), "utf8")) as {
          agent_info?: { name?: string };
          verifier_result?: { rewards?: { reward?: number } } | null;
        };
        const check = fs.existsSync(checkFile) ? (JSON.parse(fs.readFileSync(checkFile, "utf8")) as { check: string }).check : result.agent_info?.name;
        if (check === "oracle") oracle.push(result.verifier_result?.rewards?.reward ?? null);
      }
    }
    out.push({
      id,
      parent: parentOf.get(id) ?? null,
      root: rootOf(id),
      round: l.round as number,
      status: l.status as string,
      reason: (l.rejection_reason as string | null) ?? null,
      operator: (l.operator as string | null) ?? null,
      category,
      metrics: {
        solution_lines: m.solutionLines,
        commands: m.commands,
        distinct_tools: m.distinctTools,
        instruction_words: m.instructionWords,
        verifier_tests: m.verifierTests,
      },
      passAtK: ev ? passAtK(ev.n as number, ev.successes as number, ev.k as number) : null,
      reward: ev ? ((ev.mean_reward as number | null | undefined) ?? null) : null,
      oracle,
    });
  }
  return out;
}

/** The expected page numbers of one round, from raw tasks. */
function expectRound(raw: RawTask[], got: RoundDetailJson) {
  const cands = raw.filter((t) => t.round === got.round);
  const acc = cands.filter((t) => t.status === "accepted");
  expect(got.candidates).toBe(cands.length);
  expect(got.accepted).toBe(acc.length);
  expect(got.rejected).toBe(cands.length - acc.length);
  expect(got.yield).toBeCloseTo(acc.length / cands.length, 12);
  const validated = cands.filter((t) => t.oracle.length > 0);
  const passed = validated.filter((t) => t.oracle.every((r) => r !== null && r >= 1));
  expect(got.validated).toBe(validated.length);
  expect(got.validation_passed).toBe(passed.length);
  if (validated.length > 0) expect(got.validation_rate).toBeCloseTo(passed.length / validated.length, 12);
  for (const metric of ROUND_METRICS) {
    const values = acc.map((t) => t.metrics[metric]).filter((v): v is number => v !== null && v !== undefined);
    expect(got.metrics[metric].n, `${metric} n r${got.round}`).toBe(values.length);
    for (const [key, p] of PERCENTILES) {
      const want = percentileCont(values, p);
      if (want === null) expect(got.metrics[metric][key]).toBeNull();
      else expect(got.metrics[metric][key], `${metric} ${key} r${got.round}`).toBeCloseTo(want, 9);
    }
  }
  expect(got.median_solution_lines).toBe(got.metrics.solution_lines.p50);
  const pk = acc.map((t) => t.passAtK).filter((v): v is number => v !== null);
  const rw = acc.map((t) => t.reward).filter((v): v is number => v !== null);
  expect(got.solver_n).toBe(pk.length);
  const wantPk = mean(pk);
  const wantRw = mean(rw);
  if (wantPk === null) expect(got.pass_at_k).toBeNull();
  else expect(got.pass_at_k).toBeCloseTo(wantPk, 9);
  if (wantRw === null) expect(got.mean_reward).toBeNull();
  else expect(got.mean_reward).toBeCloseTo(wantRw, 9);
  const reasons = new Map<string, number>();
  for (const t of cands) if (t.status === "rejected") reasons.set(t.reason ?? NO_REASON, (reasons.get(t.reason ?? NO_REASON) ?? 0) + 1);
  expect(Object.fromEntries(got.rejection_reasons.map((r) => [r.reason, r.count]))).toEqual(Object.fromEntries(reasons));
  const ops = new Map<string, { candidates: number; accepted: number }>();
  for (const t of cands) {
    const o = ops.get(t.operator ?? "") ?? { candidates: 0, accepted: 0 };
    o.candidates++;
    if (t.status === "accepted") o.accepted++;
    ops.set(t.operator ?? "", o);
  }
  expect(Object.fromEntries(got.operators.map((o) => [o.operator ?? "", { candidates: o.candidates, accepted: o.accepted }]))).toEqual(Object.fromEntries(ops));
}

describe.each(BACKENDS)("round statistics on %s", (backend) => {
  let database: TestDatabase;
  let dir: string;
  let raw: RawTask[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-rounds-"));
    await generateRun({ out: path.join(dir, "run"), tasks: 300, seed: 5, name: "rs" });
    database = await createTestDatabase(backend);
    await ingestPath(database.db, path.join(dir, "run"));
    raw = await readRaw(path.join(dir, "run"));
  }, 300_000);
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("every number of every round equals the raw files' numbers", async () => {
    const detail = await getRoundDetail(database.db, "rs");
    expect(detail?.solver).toEqual({ model: "claude-opus-4-1", k: 4 });
    const rounds = [...new Set(raw.map((t) => t.round))].sort((a, b) => a - b);
    expect(detail?.rounds.map((r) => r.round)).toEqual(rounds);
    for (const r of detail?.rounds ?? []) expectRound(raw, r);
  });

  test("the existing round stats keep their fields and agree with the detail", async () => {
    const plain = await getRoundStats(database.db, "rs");
    const detail = await getRoundDetail(database.db, "rs");
    expect(Object.keys(plain?.rounds[0] ?? {})).toEqual([
      "round",
      "candidates",
      "accepted",
      "rejected",
      "median_solution_lines",
      "median_commands",
      "median_distinct_tools",
      "median_instruction_words",
      "median_verifier_tests",
      "pass_at_k",
      "mean_reward",
    ]);
    for (const [i, r] of (plain?.rounds ?? []).entries()) {
      const d = detail?.rounds[i];
      for (const [k, v] of Object.entries(r)) {
        const dv = (d as unknown as Record<string, unknown>)[k];
        if (typeof v === "number") expect(dv).toBeCloseTo(v, 9);
        else expect(dv).toBe(v);
      }
    }
  });

  test("slices: category, operator, seed family and review state", async () => {
    const category = raw.find((t) => t.round === 5)?.category ?? "";
    const operator = raw.find((t) => t.round === 7)?.operator ?? "";
    const families = await listSeedFamilies(database.db, "rs");
    const seed = families[0];
    expect(seed).toBeDefined();
    expect(seed?.tasks).toBe(raw.filter((t) => t.root === seed?.task_id).length);
    const cases: [RoundSliceJson, (t: RawTask) => boolean][] = [
      [{ category }, (t) => t.category === category],
      [{ operator }, (t) => t.operator === operator],
      [{ root: seed?.id ?? 0 }, (t) => t.root === seed?.task_id],
      [{ review: "unreviewed" }, () => true],
    ];
    for (const [slice, keep] of cases) {
      const detail = await getRoundDetail(database.db, "rs", slice);
      const subset = raw.filter(keep);
      expect(detail?.rounds.map((r) => r.round)).toEqual([...new Set(subset.map((t) => t.round))].sort((a, b) => a - b));
      for (const r of detail?.rounds ?? []) expectRound(subset, r);
    }
    const none = await getRoundDetail(database.db, "rs", { review: "accepted" });
    expect(none?.rounds).toEqual([]);
  });

  test("the cache answers the same numbers and is invalidated by a change of data version", async () => {
    clearRoundCache();
    const first = await computeRoundDetail(database.db, "rs", {});
    const again = await computeRoundDetail(database.db, "rs", {});
    expect(again).toBe(first);
    const seeds = await computeSeedFamilies(database.db, "rs");
    expect(seeds).toEqual(await listSeedFamilies(database.db, "rs"));
    expect(await computeSeedFamilies(database.db, "rs")).toBe(seeds);
    // A review changes review states: the data version moves and the numbers are recomputed.
    const [task] = await database.db.select({ id: tasks.id, hash: tasks.contentHash }).from(tasks).where(eq(tasks.status, "accepted")).limit(1);
    if (!task) throw new Error("no accepted task");
    await database.db.update(tasks).set({ reviewState: "accepted" }).where(eq(tasks.id, task.id));
    const { reviews } = await import("../schema");
    await database.db.insert(reviews).values({ taskId: task.id, decision: "accept", baseVersion: 1, contentHash: task.hash });
    const after = await computeRoundDetail(database.db, "rs", { review: "accepted" });
    expect(after?.data_version).not.toBe(first?.data_version);
    expect(after?.rounds.reduce((n, r) => n + r.accepted, 0)).toBe(1);
  });
});
