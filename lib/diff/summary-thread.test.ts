import { afterAll, describe, expect, it } from "vitest";
import { BASH_BLOCKS, PYTHON_BLOCKS, random, randomEdit, randomScript } from "./random-edits";
import { clearSummaryCaches, stepSummary, summaryInputs } from "./summary";
import { clearAllSummaryCaches, stepSummaryInThread, stopSummaryThread, summaryThreadState } from "./summary-thread";

afterAll(() => stopSummaryThread());

const INSTRUCTION = (extra: string) => `# Task\n\nWrite the report to \`/app/out.txt\`. Keep it short.\n${extra}`;

describe("the step summary in its own thread", () => {
  it("gives what stepSummary gives inline, parsed in the thread", async () => {
    const next = random(7);
    for (let k = 0; k < 12; k++) {
      const bash = randomScript(next, BASH_BLOCKS, 10 + Math.floor(next() * 50));
      const python = randomScript(next, PYTHON_BLOCKS, 5 + Math.floor(next() * 20));
      const parent = { "solution/solve.sh": bash, "tests/test_outputs.py": python, "instruction.md": INSTRUCTION(""), "task.toml": 'a = "1"\n' };
      const child = {
        "solution/solve.sh": randomEdit(next, bash, BASH_BLOCKS),
        "tests/test_outputs.py": randomEdit(next, python, PYTHON_BLOCKS),
        "tests/test_more.py": k % 3 === 0 ? randomScript(next, PYTHON_BLOCKS, 5) : undefined,
        "instruction.md": INSTRUCTION("- Also list the errors.\n"),
      };
      const childFiles = Object.fromEntries(Object.entries(child).filter((e): e is [string, string] => e[1] !== undefined));
      clearSummaryCaches();
      const inline = await stepSummary(parent, childFiles);
      await clearAllSummaryCaches();
      expect(await stepSummaryInThread(parent, childFiles), `case ${k}`).toEqual(inline);
      expect(summaryThreadState()).toBe("running");
    }
  });

  it("sends only the files a summary reads", () => {
    const files = { "solution/solve.sh": "a\n", "instruction.md": "b\n", "tests/test_x.py": "c\n", "tests/test.sh": "d\n", "environment/Dockerfile": "e\n" };
    expect(Object.keys(summaryInputs(files)).sort()).toEqual(["instruction.md", "solution/solve.sh", "tests/test_x.py"]);
  });

  it("a stopped thread is replaced by a new one on the next summary", async () => {
    const files = { "solution/solve.sh": "echo a\n" };
    await stepSummaryInThread({}, files);
    await stopSummaryThread();
    expect(summaryThreadState()).toBe("idle");
    expect((await stepSummaryInThread({}, files)).commands).toEqual(["echo a"]);
    expect(summaryThreadState()).toBe("running");
  });
});
