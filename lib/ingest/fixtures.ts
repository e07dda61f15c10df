// A tiny native run written by hand (not by the generator), for ingest tests.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface FixtureTask {
  id: string;
  parent: string | null;
  round: number;
  status?: "accepted" | "rejected";
  solve?: string;
}

function write(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

export function writeTask(dir: string, t: FixtureTask): void {
  const base = path.join(dir, "tasks", t.id);
  write(path.join(base, "instruction.md"), `# Task ${t.id}\n\nCreate \`/app/out-${t.round}.txt\` containing the word done.\n`);
  write(path.join(base, "task.toml"), `schema_version = "1.1"\n[task]\nname = "demo/${t.id}"\n[metadata]\ndifficulty = "easy"\ncategory = "file-operations"\nunknown_key = 3\n`);
  write(path.join(base, "environment/Dockerfile"), "FROM ubuntu:24.04\nWORKDIR /app\n");
  write(path.join(base, "solution/solve.sh"), t.solve ?? `#!/bin/bash\nset -e\nmkdir -p /app\necho done > /app/out-${t.round}.txt\ncat /app/out-${t.round}.txt | grep -c done\n`);
  write(path.join(base, "tests/test.sh"), "#!/bin/bash\npytest /tests/test_outputs.py && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n");
  write(path.join(base, "tests/test_outputs.py"), `from pathlib import Path\n\ndef test_out():\n    assert Path("/app/out-${t.round}.txt").read_text().strip() == "done"\n`);
}

export function writeTrial(dir: string, taskId: string, name: string, check: "oracle" | "nop", reward: number): void {
  const base = path.join(dir, "trials", taskId, name);
  write(
    path.join(base, "result.json"),
    JSON.stringify({
      id: name,
      task_name: taskId,
      trial_name: name,
      agent_info: { name: check, model_info: null },
      verifier_result: { rewards: { reward } },
      exception_info: null,
      started_at: "2026-01-01T00:00:00Z",
      finished_at: "2026-01-01T00:01:00Z",
      verifier: { started_at: "2026-01-01T00:00:40Z", finished_at: "2026-01-01T00:01:00Z" },
    }),
  );
  write(path.join(base, "verifier/test-stdout.txt"), `\u001b[32mPASSED\u001b[0m test_out\nnul here:\u0000end\n`);
  write(path.join(base, "verifier/reward.txt"), `${reward}\n`);
  write(
    path.join(base, "verifier/ctrf.json"),
    JSON.stringify({ results: { tests: [{ name: "test_out", status: reward > 0 ? "passed" : "failed", duration: 12 }] } }),
  );
}

/** Seeds s1, s2; s1 → a1 → b1; a rejected candidate a2 of s2. Returns the run directory. */
export function writeFixtureRun(name = "fixture"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-fixture-"));
  const tasks: FixtureTask[] = [
    { id: "s1", parent: null, round: 0 },
    { id: "s2", parent: null, round: 0 },
    { id: "a1", parent: "s1", round: 1 },
    { id: "a2", parent: "s2", round: 1, status: "rejected" },
    { id: "b1", parent: "a1", round: 2 },
  ];
  write(path.join(dir, "run.json"), JSON.stringify({ name, created_at: "2026-01-01T00:00:00Z", seeds: 2, rounds: 2, solver: { model: "solver-x", k: 4 } }));
  const lineage = tasks.map((t) =>
    JSON.stringify({
      task_id: t.id,
      parent_id: t.parent,
      round: t.round,
      operator: t.parent ? "append-step" : null,
      status: t.status ?? "accepted",
      rejection_reason: t.status === "rejected" ? "oracle_failed" : null,
      repair_attempts: 0,
      created_at: "2026-01-01T00:00:00Z",
    }),
  );
  write(path.join(dir, "lineage.jsonl"), `${lineage.join("\n")}\n`);
  for (const t of tasks) {
    writeTask(dir, t);
    writeTrial(dir, t.id, `${t.id}__oracle1`, "oracle", t.status === "rejected" ? 0 : 1);
    writeTrial(dir, t.id, `${t.id}__nop1`, "nop", 0);
  }
  const evals = tasks
    .filter((t) => t.status !== "rejected")
    .map((t, i) => JSON.stringify({ task_id: t.id, model: "solver-x", k: 4, n: 8, successes: 8 - i * 2, mean_reward: 1 - i * 0.2 }));
  write(path.join(dir, "evals.jsonl"), `${evals.join("\n")}\n`);
  return dir;
}

/** A trial directory with exactly these files (paths relative to it). */
export function writeTrialFiles(base: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) write(path.join(base, rel), content);
}

function result(name: string, taskName: string, extra: Record<string, unknown>): string {
  return JSON.stringify({
    id: name,
    task_name: taskName,
    trial_name: name,
    agent_info: { name: "oracle", model_info: null },
    verifier_result: { rewards: { reward: 1 } },
    exception_info: null,
    started_at: "2026-01-01T00:00:00Z",
    finished_at: "2026-01-01T00:02:00Z",
    ...extra,
  });
}

/** Verifier output of a pytest run in which one of two tests failed (-rA --tb=short). */
export const FAILING_PYTEST_OUTPUT = [
  "============================= test session starts ==============================",
  "collected 2 items",
  "",
  "../tests/test_outputs.py .F                                              [100%]",
  "",
  "=================================== FAILURES ===================================",
  "_________________________________ test_report _________________________________",
  "/tests/test_outputs.py:9: in test_report",
  "    assert Path('/app/report.txt').exists()",
  "E   AssertionError: assert False",
  "==================================== PASSES ====================================",
  "=========================== short test summary info ============================",
  "PASSED ../tests/test_outputs.py::test_out",
  "FAILED ../tests/test_outputs.py::test_report - AssertionError: assert False",
  "========================= 1 failed, 1 passed in 0.05s ==========================",
  "",
].join("\n");

/**
 * Trials of `taskId` that are wrong or hostile in every way FORMATS.md §3 allows for, each named
 * for what it exercises: none may stop the import or reach a browser unescaped.
 */
export function writeProblemTrials(dir: string, taskId: string): void {
  const base = (name: string) => path.join(dir, "trials", taskId, name);
  writeTrialFiles(base("no-result"), { "trial.log": "started\n" });
  writeTrialFiles(base("bad-json"), { "result.json": '{"id": "bad-json", "task_name": ' });
  writeTrialFiles(base("reward-text"), {
    "result.json": result("reward-text", taskId, { verifier_result: null }),
    "verifier/reward.txt": "PASSED\n",
  });
  writeTrialFiles(base("infra"), {
    "result.json": result("infra", taskId, {
      verifier_result: null,
      exception_info: { exception_type: "SandboxBuildFailedError", exception_message: "docker build failed: exit 1" },
    }),
    "exception.txt": "Traceback (most recent call last):\nSandboxBuildFailedError: docker build failed\n",
  });
  writeTrialFiles(base("parent-check"), {
    "result.json": result("parent-check", taskId, { verifier_result: { rewards: { reward: 0 } } }),
    "check.json": JSON.stringify({ check: "parent-solution" }),
    "verifier/test-stdout.txt": FAILING_PYTEST_OUTPUT,
    "verifier/reward.txt": "0\n",
  });
  writeTrialFiles(base("hostile"), {
    "result.json": result("hostile", taskId, {}),
    "verifier/test-stdout.txt": Buffer.concat([
      Buffer.from("nul:\0:end\n\x1b]8;;javascript:alert(1)\x07click me\x1b]8;;\x07\n"),
      Buffer.from("progress 10%\rprogress 50%\rprogress 100%\n\x1b[1;31mred\x1b[0m\n"),
      Buffer.from([0xff, 0xfe, 0x0a]),
    ]),
    "agent/oracle.txt": `${"x".repeat(10 * 1024 * 1024)}`,
  });
}

/**
 * Harbor task directories `dir/<id>/` with opaque ids and no lineage, as a public release ships
 * them: a seed, its child, two grandchildren (each solution extends its parent's by a step) and an
 * unrelated seed. Returns the true parent of each, for lineage inference.
 */
export function writeOpaqueFamily(dir: string): Record<string, string | null> {
  const step = (name: string) => [`mkdir -p /srv/${name}`, `tar -czf /srv/${name}.tgz /srv/${name}`, `sha256sum /srv/${name}.tgz > /srv/${name}.sum`].join("\n");
  const family: [string, string | null, string[]][] = [
    ["t-9f2c", null, ["seed"]],
    ["t-1a7e", "t-9f2c", ["seed", "archive"]],
    ["t-c03d", "t-1a7e", ["seed", "archive", "checksum"]],
    ["t-77b0", "t-1a7e", ["seed", "archive", "users"]],
    ["t-e515", null, ["other"]],
  ];
  for (const [id, , steps] of family) {
    writeTask(dir, { id, parent: null, round: 0, solve: `#!/bin/bash\nset -e\n${steps.map(step).join("\n")}\n` });
    fs.renameSync(path.join(dir, "tasks", id), path.join(dir, id));
  }
  fs.rmdirSync(path.join(dir, "tasks"));
  return Object.fromEntries(family.map(([id, parent]) => [id, parent]));
}

/** Bytes an import must keep exactly, into a fixture run's tasks: a file that is not UTF-8 (b1)
 * and a text with a NUL in it (a1). */
export function writeAwkwardBytes(dir: string): void {
  fs.writeFileSync(path.join(dir, "tasks/b1/environment/blob.bin"), Buffer.from([0xff, 0x00, 0xfe, 0x41]));
  fs.writeFileSync(path.join(dir, "tasks/a1/tests/data.txt"), "left\0right\n");
}
