import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows } from "@/db/client";
import { runs } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { writeFixtureRun, writeProblemTrials, writeTrialFiles } from "@/lib/ingest/fixtures";
import { ingestPath, type IngestSummary } from "@/lib/ingest";
import { LINE_CAP } from "@/lib/log/lines";
import { LogSearch } from "@/lib/log/search";
import { findTaskIds } from "./tasks";
import { getLogMeta, listTaskTrials, readLogBytes, readLogRange, runValidation, searchLog } from "./trials";

/** A log big enough to be stored in line chunks: numbered lines, every 997th an error in red. */
function bigLog(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(i % 997 === 0 ? `line ${i} \x1b[31mERROR\x1b[0m disk full` : `line ${i} ok ${"·".repeat(i % 50)}`);
  return `${out.join("\n")}\n`;
}

describe.each(BACKENDS)("trials and logs on %s", (backend) => {
  let database: TestDatabase;
  let dir: string;
  let summary: IngestSummary;
  let s1: number;
  const BIG = 25_000;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    dir = writeFixtureRun("trials");
    writeProblemTrials(dir, "s1");
    writeTrialFiles(path.join(dir, "trials", "s1", "big"), {
      "result.json": JSON.stringify({ trial_name: "big", task_name: "s1", agent_info: { name: "oracle" }, verifier_result: { rewards: { reward: 1 } } }),
      "verifier/test-stdout.txt": bigLog(BIG),
    });
    fs.mkdirSync(path.join(dir, "trials", "ghost", "t1"), { recursive: true });
    fs.symlinkSync("/etc", path.join(dir, "trials", "s1", "hostile", "etc"));
    summary = await ingestPath(database.db, dir, { threads: 0 });
    s1 = (await findTaskIds(database.db, "trials", ["s1"])).get("s1") ?? 0;
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const meta = async (ext: string, name: string) => {
    const trial = (await listTaskTrials(database.db, s1))?.find((t) => t.ext_id === ext);
    const m = trial ? await getLogMeta(database.db, trial.id, name) : null;
    if (!m) throw new Error(`no log ${ext}/${name}`);
    return m;
  };

  test("malformed trials are reported by file and skipped or kept; none stops the import", () => {
    const w = summary.warnings.map((i) => `${i.file}${i.line ? `:${i.line}` : ""} ${i.message}`).join("\n");
    expect(w).toMatch(/trials\/s1\/no-result\/result\.json missing: a trial directory needs result\.json; trial skipped/);
    expect(w).toMatch(/trials\/s1\/bad-json\/result\.json(:1)? .*JSON/);
    expect(w).toMatch(/trials\/s1\/reward-text\/verifier\/reward\.txt holds "PASSED\\n", not a number/);
    expect(w).toMatch(/trials\/ghost matches no task in lineage\.jsonl/);
    expect(w).toMatch(/trials\/s1\/hostile\/etc symbolic links are not imported/);
    expect(summary.tasksNew).toBe(5);
  });

  test("trials come with check kind, verdict, problems, tests failing first linked to their log line", async () => {
    const trials = (await listTaskTrials(database.db, s1)) ?? [];
    const by = new Map(trials.map((t) => [t.ext_id, t]));
    expect([...by.keys()].sort()).toEqual(["big", "hostile", "infra", "parent-check", "reward-text", "s1__nop1", "s1__oracle1"]);
    expect(by.get("infra")).toMatchObject({ verdict: "infra-error", exception_type: "SandboxBuildFailedError", reward: null });
    expect(by.get("reward-text")).toMatchObject({ verdict: "no-reward", reward: null });
    expect(by.get("reward-text")?.problems).toEqual(['verifier/reward.txt: holds "PASSED\\n", not a number; reward left empty']);
    const parent = by.get("parent-check");
    expect(parent).toMatchObject({ check: "parent-solution", verdict: "as-expected", reward: 0 });
    // No ctrf.json: the tests are read from pytest's own lines, the failing one first, and it
    // points at its failure section in the verifier output.
    expect(parent?.tests).toEqual([
      { name: "../tests/test_outputs.py::test_report", status: "failed", duration_ms: null, message: "AssertionError: assert False", log_name: "verifier/test-stdout.txt", log_line: 6 },
      { name: "../tests/test_outputs.py::test_out", status: "passed", duration_ms: null, message: null, log_name: "verifier/test-stdout.txt", log_line: 12 },
    ]);
    expect(trials[0]?.check).toBe("oracle");
    expect(await listTaskTrials(database.db, 999_999)).toBeNull();
  });

  test("any window of a chunked log comes back exactly, with the total line count", async () => {
    const m = await meta("big", "verifier/test-stdout.txt");
    expect(m.chunked).toBe(true);
    expect(m.lines).toBe(BIG);
    const expected = bigLog(BIG).split("\n");
    for (const [from, to] of [[0, 10], [995, 2005], [BIG - 1000, BIG], [BIG - 3, BIG + 50], [12_345, 12_346]] as const) {
      const r = await readLogRange(database.db, m, from, to);
      expect(r.total_lines).toBe(BIG);
      expect(r.from).toBe(from);
      expect(r.to).toBe(Math.min(to, BIG));
      expect(r.lines).toEqual(expected.slice(from, Math.min(to, BIG)));
    }
  });

  test("a 10 MB single line comes back clipped with its full length", async () => {
    const m = await meta("hostile", "agent/oracle.txt");
    expect(m.chunked).toBe(true);
    const r = await readLogRange(database.db, m, 0, 5);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toHaveLength(LINE_CAP);
    expect(r.clipped).toEqual([{ line: 0, chars: 10 * 1024 * 1024 }]);
    expect((await readLogBytes(database.db, m)).length).toBe(10 * 1024 * 1024);
  });

  test("control bytes come back as markers, progress bars collapsed, escapes kept for the viewer", async () => {
    const m = await meta("hostile", "verifier/test-stdout.txt");
    const r = await readLogRange(database.db, m, 0, 10);
    expect(r.lines[0]).toBe("nul:\u2400:end");
    expect(r.lines[1]).toBe("\x1b]8;;javascript:alert(1)\x07click me\x1b]8;;\x07");
    expect(r.lines[2]).toBe("progress 100%");
    expect(r.lines[3]).toBe("\x1b[1;31mred\x1b[0m");
    expect(r.lines[4]).toBe("\ufffd\ufffd");
    // the raw download is the exact bytes, invalid UTF-8 and NUL included
    const raw = await readLogBytes(database.db, m);
    expect(raw.subarray(0, 10)).toEqual(Buffer.from("nul:\0:end\n"));
    expect(raw.subarray(raw.length - 3)).toEqual(Buffer.from([0xff, 0xfe, 0x0a]));
  });

  test("search counts every match of the whole log and finds the errors", async () => {
    const m = await meta("big", "verifier/test-stdout.txt");
    const errors = Math.ceil(BIG / 997);
    const literal = await searchLog(database.db, m, new LogSearch({ q: "error", regex: false, caseSensitive: false }));
    expect(literal.total).toBe(errors);
    expect(literal.matches[1]).toEqual({ line: 997, start: 9, end: 14 });
    const regex = await searchLog(database.db, m, new LogSearch({ q: "^line 2499\\d ", regex: true, caseSensitive: true }));
    expect(regex.matches.map((x) => x.line)).toEqual([24990, 24991, 24992, 24993, 24994, 24995, 24996, 24997, 24998, 24999]);
  });

  test("logs of large trials are stored once per content", async () => {
    const [row] = await execRows<{ n: number }>(database.db, sql`SELECT count(DISTINCT blob_hash)::int AS n FROM log_chunks`);
    expect(row?.n).toBe(2);
  });

  test("run validation: outcomes per round and check kind, recurring exceptions, tasks never judged", async () => {
    const v = await runValidation(database.db, "trials");
    const cell = (round: number, check: string, verdict: string) => v?.cells.find((c) => c.round === round && c.check === check && c.verdict === verdict)?.trials ?? 0;
    // round 0: s1 and s2 each have an oracle (reward 1) and a no-op (reward 0) run; s1 has more
    expect(cell(0, "nop", "as-expected")).toBe(2);
    expect(cell(0, "oracle", "as-expected")).toBe(4); // s1__oracle1, s2__oracle1, hostile, big
    expect(cell(0, "oracle", "infra-error")).toBe(1);
    expect(cell(0, "oracle", "no-reward")).toBe(1);
    expect(cell(0, "parent-solution", "as-expected")).toBe(1);
    // round 1: the rejected a2's oracle run earned nothing
    expect(cell(1, "oracle", "unexpected")).toBe(1);
    expect(v?.exceptions).toEqual([
      { exception_type: "SandboxBuildFailedError", trials: 1, tasks: 1, example: "docker build failed: exit 1", example_task_id: s1 },
    ]);
    expect(v?.unvalidated_total).toBe(0);
    expect(await runValidation(database.db, "no-such-run")).toBeNull();
  });

  test("run validation is stored for the run's latest finished import, and computed again after the next", async () => {
    const stamp = async () => (await database.db.select({ validation: runs.validation }).from(runs).where(eq(runs.name, "trials")))[0]?.validation;
    const latestImport = async () =>
      Number((await execRows<{ id: number }>(database.db, sql`SELECT max(id) AS id FROM imports WHERE run_name = 'trials' AND status IN ('done', 'unchanged')`))[0]?.id);
    const v = await runValidation(database.db, "trials");
    expect(await stamp()).toEqual({ import_id: await latestImport(), value: v });
    // Read back as stored: a stored page with another total is what comes back...
    await database.db
      .update(runs)
      .set({ validation: { import_id: await latestImport(), value: { ...v, unvalidated_total: 12_345 } } })
      .where(eq(runs.name, "trials"));
    expect((await runValidation(database.db, "trials"))?.unvalidated_total).toBe(12_345);
    // ...a shorter list is computed, not stored...
    expect((await runValidation(database.db, "trials", 1))?.unvalidated_total).toBe(v?.unvalidated_total);
    expect((await stamp())?.import_id).toBe(await latestImport());
    // ...and once another import has finished (here one that changed nothing), it is computed again.
    const before = await latestImport();
    await ingestPath(database.db, dir, { threads: 0 });
    expect(await latestImport()).toBeGreaterThan(before);
    expect(await runValidation(database.db, "trials")).toEqual(v);
    expect(await stamp()).toEqual({ import_id: await latestImport(), value: v });
  });

  test("Harbor jobs attach trials to the run's tasks by name, path or checksum, and report the rest", async () => {
    const jobs = fs.mkdtempSync(path.join(dir, "..", "rst-jobs-"));
    const trial = (job: string, name: string, res: Record<string, unknown>, config?: unknown) =>
      writeTrialFiles(path.join(jobs, job, name), {
        "result.json": JSON.stringify({ trial_name: name, agent_info: { name: "oracle" }, verifier_result: { rewards: { reward: 1 } }, ...res }),
        ...(config ? { "config.json": JSON.stringify(config) } : {}),
        "verifier/test-stdout.txt": "1 passed\n",
      });
    for (const job of ["job-1", "job-2"]) writeTrialFiles(path.join(jobs, job), { "result.json": "{}", "config.json": "{}" });
    trial("job-1", "a1__x1", { task_name: "a1", task_checksum: "sum-a1" });
    trial("job-1", "b1__x1", { task_name: "elsewhere/b1" }, { task: { path: "/data/tasks/b1" } });
    trial("job-1", "zz__x1", { task_name: "zz", task_checksum: "sum-zz" });
    const first = await ingestPath(database.db, path.join(jobs, "job-1"), { runName: "trials" });
    expect(first).toMatchObject({ format: "harbor", run: "trials", trialsNew: 2, candidates: 3 });
    expect(first.warnings.map((w) => `${w.file} ${w.message}`)).toEqual(["zz__x1 matches no task of the run (task_name zz, task_checksum sum-zz); not imported"]);

    // A folder of jobs; the second job's trial is known only by the checksum an earlier trial had.
    trial("job-2", "a1__x2", { task_name: "renamed", task_checksum: "sum-a1", agent_info: { name: "nop" }, verifier_result: { rewards: { reward: 0 } } });
    const second = await ingestPath(database.db, jobs, { runName: "trials" });
    expect(second).toMatchObject({ trialsNew: 1 });
    const a1 = (await findTaskIds(database.db, "trials", ["a1"])).get("a1") ?? 0;
    const a1Trials = (await listTaskTrials(database.db, a1)) ?? [];
    expect(a1Trials.map((t) => [t.ext_id, t.check, t.source]).sort()).toEqual([
      ["a1__nop1", "nop", "run"],
      ["a1__oracle1", "oracle", "run"],
      ["a1__x1", "oracle", "job-1"],
      ["a1__x2", "nop", "job-2"],
    ]);
    const again = await ingestPath(database.db, jobs, { runName: "trials" });
    expect(again).toMatchObject({ trialsNew: 0, unchanged: true });
    await expect(ingestPath(database.db, jobs, { runName: "nope" })).rejects.toThrow(/no run named nope/);
    fs.rmSync(jobs, { recursive: true, force: true });
  });
});
