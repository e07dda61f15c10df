// Where the trial rules' evidence points: a line of a log a reviewer can read (issue 8's e2e opens it).
import { describe, expect, it } from "vitest";
import { analysed, input, trial } from "../testing";
import type { CheckTrialTest } from "../types";
import { trialEvidence } from "./common";
import { parentSolutionPasses } from "./parent-solution-passes";

const test = (name: string, status: string, logLine: number | null, message: string | null = null): CheckTrialTest => ({
  name,
  status,
  message,
  logName: logLine === null ? null : "verifier/test-stdout.txt",
  logLine,
});

const TASK = { "instruction.md": "Do it.\n", "solution/solve.sh": "#!/bin/bash\ntrue\n", "tests/test_outputs.py": "def test_a():\n    assert True\n" };

describe("parent-solution-passes evidence", () => {
  it("a skipped test pytest's summary does not name: the last passing test's log line instead", async () => {
    const t = await analysed(2, TASK, { parentId: 1 });
    const tests = [test("t.py::test_site", "skipped", null, "Skipped: /etc/x not generated"), test("t.py::test_a", "passed", 8), test("t.py::test_b", "passed", 9)];
    const [f] = parentSolutionPasses(input(t, null, [trial("parent-solution", 1, { tests, logs: ["verifier/ctrf.json", "verifier/test-stdout.txt"] })]));
    expect(f?.evidence).toMatchObject({ log: "verifier/test-stdout.txt", log_line: 10, test: "t.py::test_b", compare_task_id: 1 });
    // The message still counts the skipped test.
    expect(f?.message).toContain("1 test(s) skipped");
  });

  it("a skipped test with a line of its own is the evidence", async () => {
    const t = await analysed(2, TASK, { parentId: 1 });
    const tests = [test("t.py::test_a", "passed", 8), test("t.py::test_site", "skipped", 12, "Skipped: /etc/x not generated")];
    const [f] = parentSolutionPasses(input(t, null, [trial("parent-solution", 1, { tests })]));
    expect(f?.evidence).toMatchObject({ log: "verifier/test-stdout.txt", log_line: 13, test: "t.py::test_site", excerpt: "Skipped: /etc/x not generated" });
  });
});

describe("trialEvidence without a test", () => {
  it("points at a readable verifier log before ctrf.json", () => {
    expect(trialEvidence(trial("oracle", null, { logs: ["agent/oracle.txt", "verifier/ctrf.json", "verifier/test-stderr.txt", "verifier/test-stdout.txt"] })).log).toBe("verifier/test-stderr.txt");
    expect(trialEvidence(trial("oracle", null, { logs: ["trial.log", "verifier/ctrf.json"] })).log).toBe("verifier/ctrf.json");
    expect(trialEvidence(trial("oracle", null, { logs: ["trial.log"] })).log).toBe("trial.log");
  });
});
