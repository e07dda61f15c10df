import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateRun, type GenerateSummary } from "./index";

interface Lineage {
  task_id: string;
  parent_id: string | null;
  round: number;
  operator: string | null;
  status: "accepted" | "rejected";
  rejection_reason: string | null;
  repair_attempts: number;
  created_at: string;
}

const readJsonl = <T>(file: string): T[] =>
  fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as T);

function hashTree(dir: string): string {
  const hash = createHash("sha256");
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = path.join(rel, e.name);
      hash.update(r);
      if (e.isDirectory()) walk(r);
      else hash.update(fs.readFileSync(path.join(dir, r)));
    }
  };
  walk("");
  return hash.digest("hex");
}

describe("generateRun (300 tasks, 15 rounds)", () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "rst-gen-"));
  const out = path.join(base, "run");
  let summary: GenerateSummary;
  let lineage: Lineage[];
  const progress: number[] = [];

  beforeAll(async () => {
    summary = await generateRun({ out, tasks: 300, rounds: 15, seed: 3, onProgress: (done) => progress.push(done) });
    lineage = readJsonl<Lineage>(path.join(out, "lineage.jsonl"));
  }, 120_000);

  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it("writes the native run layout", () => {
    for (const f of ["run.json", "lineage.jsonl", "evals.jsonl", "truth.jsonl", "tasks", "trials"]) expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
    const run = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")) as { name: string; seeds: number; rounds: number; solver: { model: string; k: number } };
    expect(run).toMatchObject({ name: "demo-s3-n300", seeds: summary.seeds, rounds: 15, solver: { k: 4 } });
    expect(summary.accepted).toBe(300);
    expect(summary.rejected).toBeGreaterThan(150);
    expect(progress.at(-1)).toBe(summary.accepted + summary.rejected);
  });

  it("gives every candidate a complete Harbor task", () => {
    for (const r of lineage) {
      const dir = path.join(out, "tasks", r.task_id);
      for (const f of ["instruction.md", "task.toml", "environment/Dockerfile", "solution/solve.sh", "tests/test.sh", "tests/test_outputs.py"]) {
        expect(fs.existsSync(path.join(dir, f)), `${r.task_id}/${f}`).toBe(true);
      }
      expect(r.task_id).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it("imports in each verifier the modules its tests use, and not every module everywhere", () => {
    const modules = ["csv", "grp", "gzip", "json", "os", "pwd", "re", "socket", "sqlite3", "stat", "subprocess", "time", "ET"];
    const importing = new Map(modules.map((m) => [m, 0]));
    for (const r of lineage) {
      const text = fs.readFileSync(path.join(out, "tasks", r.task_id, "tests/test_outputs.py"), "utf8");
      const imported = new Set([...text.matchAll(/^import (\S+)(?: as (\S+))?$/gm)].map((m) => m[2] ?? m[1]));
      expect(imported.has("pytest"), r.task_id).toBe(true);
      const code = text.split("\n").filter((l) => !l.trimStart().startsWith('"""'));
      for (const m of modules) {
        const used = code.some((l) => new RegExp(`\\b${m}\\.`).test(l));
        if (used) expect(imported.has(m), `${r.task_id} uses ${m} without importing it`).toBe(true);
        if (imported.has(m)) importing.set(m, (importing.get(m) ?? 0) + 1);
      }
      if (code.some((l) => /\bPath\(/.test(l))) expect(text, r.task_id).toMatch(/^from pathlib import Path$/m);
    }
    // A module some tasks need is not in every verifier: a search for it finds those tasks.
    const sqlite = importing.get("sqlite3") ?? 0;
    expect(sqlite).toBeGreaterThan(0);
    expect(sqlite).toBeLessThan(lineage.length / 2);
  });

  it("keeps lineage consistent: parents exist, were accepted, and sit one round earlier", () => {
    const byId = new Map(lineage.map((r) => [r.task_id, r]));
    expect(byId.size).toBe(lineage.length);
    let previous = "";
    for (const r of lineage) {
      expect(r.created_at >= previous, `${r.task_id} created_at`).toBe(true);
      previous = r.created_at;
      if (r.round === 0) {
        expect(r.parent_id).toBeNull();
        continue;
      }
      const parent = byId.get(r.parent_id ?? "");
      expect(parent, r.task_id).toBeDefined();
      expect(parent?.status).toBe("accepted");
      expect(parent?.round).toBe(r.round - 1);
      expect(r.operator).toBeTruthy();
      expect(r.status === "rejected").toBe(r.rejection_reason !== null);
    }
    expect(lineage.filter((r) => r.round === 0).length).toBe(summary.seeds);
    expect(Math.max(...lineage.map((r) => r.round))).toBe(15);
  });

  it("writes Harbor trial directories for sandboxed candidates", () => {
    const checks = new Set<string>();
    let trials = 0;
    for (const taskId of fs.readdirSync(path.join(out, "trials"))) {
      for (const name of fs.readdirSync(path.join(out, "trials", taskId))) {
        const dir = path.join(out, "trials", taskId, name);
        expect(name.startsWith(`${taskId}__`)).toBe(true);
        const result = JSON.parse(fs.readFileSync(path.join(dir, "result.json"), "utf8")) as Record<string, unknown>;
        for (const k of ["id", "task_name", "trial_name", "task_checksum", "agent_info", "started_at", "finished_at", "environment_setup"]) expect(result, k).toHaveProperty(k);
        const check = (JSON.parse(fs.readFileSync(path.join(dir, "check.json"), "utf8")) as { check: string }).check;
        checks.add(check);
        expect(fs.existsSync(path.join(dir, "config.json"))).toBe(true);
        expect(fs.existsSync(path.join(dir, "trial.log"))).toBe(true);
        trials++;
      }
    }
    expect(trials).toBe(summary.trials);
    expect([...checks].sort()).toEqual(["nop", "oracle", "parent-solution", "repeat"]);
  });

  it("records solver results for accepted tasks only", () => {
    const evals = readJsonl<{ task_id: string; k: number; n: number; successes: number; mean_reward: number }>(path.join(out, "evals.jsonl"));
    const accepted = new Set(lineage.filter((r) => r.status === "accepted").map((r) => r.task_id));
    expect(evals.length).toBe(accepted.size);
    for (const e of evals) {
      expect(accepted.has(e.task_id)).toBe(true);
      expect(e.successes).toBeLessThanOrEqual(e.n);
      expect(e.k).toBe(4);
    }
  });

  it("is deterministic: the same options give a byte-identical tree", async () => {
    const again = path.join(base, "again");
    await generateRun({ out: again, tasks: 300, rounds: 15, seed: 3 });
    expect(hashTree(again)).toBe(hashTree(out));
    const other = path.join(base, "other");
    await generateRun({ out: other, tasks: 300, rounds: 15, seed: 4 });
    expect(hashTree(other)).not.toBe(hashTree(out));
  }, 120_000);

  it("refuses a non-empty foreign directory but replaces an earlier run", async () => {
    const foreign = path.join(base, "foreign");
    fs.mkdirSync(foreign);
    fs.writeFileSync(path.join(foreign, "notes.txt"), "keep me");
    await expect(generateRun({ out: foreign, tasks: 20, rounds: 3 })).rejects.toThrow(/refusing/);
    expect(fs.readFileSync(path.join(foreign, "notes.txt"), "utf8")).toBe("keep me");
    const earlier = path.join(base, "earlier");
    await generateRun({ out: earlier, tasks: 20, rounds: 3, seed: 1 });
    const s = await generateRun({ out: earlier, tasks: 30, rounds: 3, seed: 2, name: "second" });
    expect(s.name).toBe("second");
    expect(JSON.parse(fs.readFileSync(path.join(earlier, "run.json"), "utf8"))).toMatchObject({ name: "second" });
  }, 60_000);
});
