// Generates a modest run once and checks the shape the published RST run has, plus the defects.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES } from "./defects";
import { passAtK } from "./evals";
import { generateRun } from "./index";
import { firedRules, readTaskFiles, readTrials } from "./rule-checks";
import { createdPaths } from "./shell-paths";

interface Lineage {
  task_id: string;
  parent_id: string | null;
  round: number;
  status: "accepted" | "rejected";
  rejection_reason: string | null;
}

const jsonl = <T>(file: string): T[] => fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as T);

const KEYWORDS = new Set(["if", "then", "else", "elif", "fi", "for", "do", "done", "while", "case", "esac", "in", "{", "}", "[", "[[", "!", "function"]);

/** Rough static metrics: non-blank non-comment lines, command starts, and instruction words. */
function roughShell(script: string): { lines: number; commands: number } {
  let lines = 0;
  let commands = 0;
  let heredoc: string | null = null;
  for (const raw of script.split("\n")) {
    const line = raw.trim();
    if (heredoc !== null) {
      lines += line === "" ? 0 : 1;
      if (line === heredoc) heredoc = null;
      continue;
    }
    if (line === "" || line.startsWith("#")) continue;
    lines++;
    heredoc = /<<-?\s*['"]?([A-Za-z_]\w*)/.exec(line)?.[1] ?? null;
    const code = line.replace(/'[^']*'/g, "''");
    for (const seg of code.split(/\|\||&&|\||;|\$\(|\bthen\b|\bdo\b|\belse\b/)) {
      const first = seg.trim().split(/\s+/)[0] ?? "";
      if (first === "" || KEYWORDS.has(first) || /^[A-Za-z_]\w*=/.test(first) || /^[)}\\;]/.test(first) || first === "export" || first === "local") continue;
      commands++;
    }
  }
  return { lines, commands };
}

const words = (text: string): number => text.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

describe("a 1500-task run", () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "rst-gen-"));
  const out = path.join(base, "run");
  let lineage: Lineage[] = [];
  const rounds = new Map<number, { lines: number[]; commands: number[]; words: number[]; tests: number[]; passAt4: number[]; reward: number[]; candidates: number; accepted: number }>();

  beforeAll(async () => {
    await generateRun({ out, tasks: 1500, rounds: 15, seed: 7 });
    lineage = jsonl<Lineage>(path.join(out, "lineage.jsonl"));
    const evals = new Map(jsonl<{ task_id: string; n: number; successes: number; k: number; mean_reward: number }>(path.join(out, "evals.jsonl")).map((e) => [e.task_id, e]));
    for (const r of lineage) {
      const agg = rounds.get(r.round) ?? { lines: [], commands: [], words: [], tests: [], passAt4: [], reward: [], candidates: 0, accepted: 0 };
      rounds.set(r.round, agg);
      agg.candidates++;
      if (r.status !== "accepted") continue;
      agg.accepted++;
      const f = readTaskFiles(out, r.task_id);
      const m = roughShell(f.solve);
      agg.lines.push(m.lines);
      agg.commands.push(m.commands);
      agg.words.push(words(f.instruction));
      agg.tests.push((f.tests.match(/^def test_/gm) ?? []).length);
      const e = evals.get(r.task_id);
      if (e) {
        agg.passAt4.push(passAtK(e.n, e.successes, e.k));
        agg.reward.push(e.mean_reward);
      }
    }
  }, 600_000);

  afterAll(() => fs.rmSync(base, { recursive: true, force: true }), 600_000);

  const series = (pick: (r: NonNullable<ReturnType<typeof rounds.get>>) => number): number[] =>
    Array.from({ length: 15 }, (_, i) => {
      const r = rounds.get(i + 1);
      return r ? pick(r) : Number.NaN;
    });

  it("grows solutions round over round like the published run (67 → 374 lines, 40 → 244 commands)", () => {
    const lines = series((r) => median(r.lines));
    const commands = series((r) => median(r.commands));
    for (let i = 1; i < 15; i++) {
      expect(lines[i], `lines round ${i + 1}`).toBeGreaterThan(lines[i - 1] ?? 0);
      expect(commands[i], `commands round ${i + 1}`).toBeGreaterThan(commands[i - 1] ?? 0);
    }
    expect(lines[0]).toBeGreaterThan(55);
    expect(lines[0]).toBeLessThan(80);
    expect(lines[14]).toBeGreaterThan(320);
    expect(lines[14]).toBeLessThan(430);
    expect(commands[0]).toBeGreaterThan(30);
    expect(commands[0]).toBeLessThan(60);
    expect(commands[14]).toBeGreaterThan(200);
    expect(commands[14]).toBeLessThan(300);
  });

  it("grows instructions slowly (85 → 122 words) and verifiers by about one test a round", () => {
    const w = series((r) => median(r.words));
    expect(w[0]).toBeGreaterThan(72);
    expect(w[0]).toBeLessThan(100);
    expect(w[14]).toBeGreaterThan(108);
    expect(w[14]).toBeLessThan(140);
    const tests = series((r) => median(r.tests));
    const perRound = ((tests[14] ?? 0) - (tests[0] ?? 0)) / 14;
    expect(perRound).toBeGreaterThan(0.8);
    expect(perRound).toBeLessThan(1.6);
  });

  it("keeps yield near 50-57 % in every round", () => {
    for (const r of series((x) => x.accepted / x.candidates)) {
      expect(r).toBeGreaterThan(0.48);
      expect(r).toBeLessThan(0.6);
    }
  });

  it("makes tasks harder for the solver: pass@4 0.90 → 0.025, partial credit 0.97 → 0.17", () => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const p = series((r) => mean(r.passAt4));
    const reward = series((r) => mean(r.reward));
    expect(p[0]).toBeGreaterThan(0.8);
    expect(p[14]).toBeLessThan(0.1);
    expect(reward[0]).toBeGreaterThan(0.93);
    expect(reward[14]).toBeLessThan(0.25);
    // About a hundred tasks a round: allow sampling noise, but the trend must hold.
    for (let i = 1; i < 15; i++) {
      expect(p[i] ?? 1, `pass@4 round ${i + 1}`).toBeLessThan((p[i - 1] ?? 1) + 0.08);
      expect(reward[i] ?? 1, `reward round ${i + 1}`).toBeLessThan(reward[i - 1] ?? 1);
    }
  });

  it("injects every rule of § Checks, each realised as exactly that one inconsistency", () => {
    const truth = new Map(jsonl<{ task_id: string; rule: string }>(path.join(out, "truth.jsonl")).map((t) => [t.task_id, t.rule]));
    expect(new Set(truth.values())).toEqual(new Set(RULES));
    const accepted = lineage.filter((r) => r.status === "accepted" && r.round > 0);
    expect(truth.size / accepted.length).toBeGreaterThan(0.05);
    expect(truth.size / accepted.length).toBeLessThan(0.09);
    const wrong: string[] = [];
    for (const r of lineage) {
      if (r.status !== "accepted") continue;
      const fired = firedRules(readTaskFiles(out, r.task_id), r.parent_id ? readTaskFiles(out, r.parent_id) : null, readTrials(out, r.task_id));
      const want = truth.get(r.task_id);
      const ok = want ? fired.size === 1 && fired.has(want as (typeof RULES)[number]) : fired.size === 0;
      if (!ok) wrong.push(`${r.task_id}: truth ${want ?? "none"}, fired ${[...fired].join(",") || "none"}`);
    }
    expect(wrong).toEqual([]);
  });

  it("keeps every parent test passable: no step after a mirror writes into the mirrored directory", () => {
    // The mirror's test compares it with its source by `diff -r`: anything a later step writes
    // under the source would fail that test on the oracle's run.
    let mirrored = 0;
    const broken: string[] = [];
    for (const r of lineage) {
      if (r.status !== "accepted") continue;
      const solve = readTaskFiles(out, r.task_id).solve;
      const lines = solve.split("\n");
      const at = lines.findIndex((l) => /^\s*--log-file=\S+ \S+\/ "\$MIRROR\/"/.test(l));
      if (at < 0) continue;
      const source = /(\S+)\/ "\$MIRROR\/"/.exec(lines[at] ?? "")?.[1] ?? "";
      const after = lines.slice(at + 1);
      if (after.length > 20) mirrored++;
      const into = createdPaths(after, solve).filter((p) => p.startsWith(`${source}/`));
      if (into.length > 0) broken.push(`${r.task_id}: ${into.join(", ")}`);
    }
    expect(mirrored).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it("rejects for realistic reasons, mostly failed validation", () => {
    const reasons = new Map<string, number>();
    for (const r of lineage) if (r.rejection_reason) reasons.set(r.rejection_reason, (reasons.get(r.rejection_reason) ?? 0) + 1);
    const top = [...reasons].sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(top).toBe("oracle_failed");
    expect([...reasons.keys()].sort()).toEqual(["contamination", "duplicate", "oracle_failed", "repair_exhausted", "shortcut_audit", "static_check"]);
  });
});
