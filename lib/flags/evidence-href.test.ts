import { describe, expect, test } from "vitest";
import { evidenceHref, evidenceLabel } from "./evidence-href";

describe("evidenceHref", () => {
  test("a compared file opens the diff at the line when its place in the diff is known", () => {
    const e = { compare_task_id: 3, file: "tests/test outputs.py", line: 14 };
    expect(evidenceHref(7, e, 2)).toBe("/tasks/7/diff?against=3&file=tests%2Ftest%20outputs.py#f2-L14");
    expect(evidenceHref(7, e, null)).toBe("/tasks/7/diff?against=3&file=tests%2Ftest%20outputs.py");
    expect(evidenceLabel(e)).toBe("tests/test outputs.py:14 (diff)");
  });

  test("a log line opens the log viewer; a file line the task's file; a trial the task's trial", () => {
    expect(evidenceHref(7, { trial_id: 9, log: "verifier/test-stdout.txt", log_line: 88, file: "x" })).toBe("/trials/9/logs/verifier/test-stdout.txt#L88");
    expect(evidenceHref(7, { file: "solution/solve.sh", line: 3 })).toBe("/tasks/7?file=solution%2Fsolve.sh#L3");
    expect(evidenceHref(7, { file: "solution/solve.sh" })).toBe("/tasks/7?file=solution%2Fsolve.sh#files");
    expect(evidenceHref(7, { trial_id: 9, test: "test_report" })).toBe("/tasks/7#trial-9");
    expect(evidenceLabel({ trial_id: 9, test: "test_report" })).toBe("test_report");
    expect(evidenceHref(7, {})).toBe("/tasks/7");
  });

  test("evidence from a check is not trusted: odd numbers and names never leave the task's pages", () => {
    const hostile = { compare_task_id: -1, trial_id: 1.5, line: Number.NaN, file: "../../x\"><script>", log: "a/../../b" } as const;
    const href = evidenceHref(7, hostile);
    expect(href.startsWith("/tasks/7?file=")).toBe(true);
    expect(href).not.toMatch(/[<>"]/);
    // A log name with `..` would climb out of the trial's pages once the browser resolves the path.
    expect(evidenceHref(7, { trial_id: 2, log: "../../../api/v1/users" })).toBe("/tasks/7#trial-2");
    expect(evidenceHref(7, { trial_id: 2, log: "verifier/./x" })).toBe("/tasks/7#trial-2");
  });
});
