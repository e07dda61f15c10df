import { afterAll, describe, expect, it } from "vitest";
import { clearHighlightCache } from "@/lib/text/highlight";
import { buildDiffPayload } from "./payload";
import { BASH_BLOCKS, BASH_LINES, PYTHON_BLOCKS, PYTHON_LINES, random, randomEdit, randomScript } from "./random-edits";
import { clearSummaryCaches, stepSummary, summaryInputs } from "./summary";
import { clearDiffCaches, diffThreadState, fileSidesInThread, splitFileSides, stepSummaryInThread, stopDiffThread, useDiffThread } from "./thread";

afterAll(() => stopDiffThread());

const INSTRUCTION = (extra: string) => `# Task\n\nWrite the report to \`/app/out.txt\`. Keep it short.\n${extra}`;

describe("the diff thread", () => {
  it("parses the same step summary as stepSummary inline", async () => {
    const next = random(7);
    for (let k = 0; k < 12; k++) {
      const bash = randomScript(next, BASH_BLOCKS, 10 + Math.floor(next() * 50));
      const python = randomScript(next, PYTHON_BLOCKS, 5 + Math.floor(next() * 20));
      const parent = { "solution/solve.sh": bash, "tests/test_outputs.py": python, "instruction.md": INSTRUCTION(""), "task.toml": 'a = "1"\n' };
      const child: Record<string, string> = {
        "solution/solve.sh": randomEdit(next, bash, BASH_BLOCKS),
        "tests/test_outputs.py": randomEdit(next, python, PYTHON_BLOCKS),
        "instruction.md": INSTRUCTION("- Also list the errors.\n"),
      };
      if (k % 3 === 0) child["tests/test_more.py"] = randomScript(next, PYTHON_BLOCKS, 5);
      clearSummaryCaches();
      const inline = await stepSummary(parent, child);
      await clearDiffCaches();
      expect(await stepSummaryInThread(parent, child), `case ${k}`).toEqual(inline);
      expect(diffThreadState()).toBe("running");
    }
  });

  it("highlights the same tokens as the inline payload, whichever thread holds which file", async () => {
    const next = random(11);
    for (let k = 0; k < 10; k++) {
      const bash = randomScript(next, BASH_LINES, 20 + Math.floor(next() * 60));
      const python = randomScript(next, PYTHON_LINES, 20 + Math.floor(next() * 40));
      const from = { "solution/solve.sh": bash, "tests/test_outputs.py": python, "tests/test.sh": bash };
      const to = { "solution/solve.sh": randomEdit(next, bash, BASH_LINES), "tests/test_outputs.py": randomEdit(next, python, PYTHON_LINES), "tests/test.sh": bash };
      clearHighlightCache();
      const inline = await buildDiffPayload(from, to, new Set());
      await clearDiffCaches();
      expect(await buildDiffPayload(from, to, new Set(), splitFileSides), `case ${k}, split`).toEqual(inline);
      await clearDiffCaches();
      expect(await buildDiffPayload(from, to, new Set(), fileSidesInThread), `case ${k}, all in the thread`).toEqual(inline);
      // Cached in the thread now: the same again.
      expect(await buildDiffPayload(from, to, new Set(), fileSidesInThread), `case ${k}, cached`).toEqual(inline);
      expect(diffThreadState()).toBe("running");
    }
  });

  it("sends a summary only the files it reads", () => {
    const files = { "solution/solve.sh": "a\n", "instruction.md": "b\n", "tests/test_x.py": "c\n", "tests/test.sh": "d\n", "environment/Dockerfile": "e\n" };
    expect(Object.keys(summaryInputs(files)).sort()).toEqual(["instruction.md", "solution/solve.sh", "tests/test_x.py"]);
  });

  it("a stopped thread is replaced on the next job; switched off, the work is done inline", async () => {
    const files = { "solution/solve.sh": "echo a\n" };
    await stepSummaryInThread({}, files);
    await stopDiffThread();
    expect(diffThreadState()).toBe("idle");
    useDiffThread(false);
    expect((await stepSummaryInThread({}, files)).commands).toEqual(["echo a"]);
    expect(diffThreadState()).toBe("idle");
    useDiffThread(true);
    expect((await stepSummaryInThread({}, files)).commands).toEqual(["echo a"]);
    expect(diffThreadState()).toBe("running");
  });
});
