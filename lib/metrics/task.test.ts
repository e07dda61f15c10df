import { describe, expect, it } from "vitest";
import { measureTask, solutionStepsScript } from "./task";

const SOLVE = "#!/bin/bash\n# reference solution\ncd /app\njq -r .name in.json | sort > /app/out.txt\n";
const TEST_OUTPUTS = "def test_out():\n    assert open('/app/out.txt').read()\n    assert True\n";
// SOLVE's two command lines as Terminal-Bench 1 keystroke steps
const STEPS = [
  "- command: cd /app",
  "  min_timeout_sec: 0.1",
  "  block: false",
  "  append_enter: true",
  "- command: jq -r .name in.json | sort > /app/out.txt",
  "  min_timeout_sec: 5",
  "  block: true",
  "  append_enter: true",
  "",
].join("\n");
const SOLVE_COUNTS = { solutionLines: 2, commands: 3, distinctTools: 2 };
const NO_SOLUTION = { solutionLines: null, commands: null, distinctTools: null };
const TEST_STATE = "class TestState:\n    def test_a(self):\n        assert 1\n    def test_b(self):\n        pass\n";

describe("measureTask", () => {
  it("measures a Harbor task from its files", async () => {
    const files = new Map([
      ["instruction.md", "# Task\n\nSort the `names` into /app/out.txt.\n"],
      ["task.toml", 'version = "1.0"\n'],
      ["solution/solve.sh", SOLVE],
      ["tests/test.sh", "#!/bin/bash\npytest /tests\n"],
      ["tests/test_outputs.py", TEST_OUTPUTS],
      ["tests/unit/test_state.py", TEST_STATE],
      ["tests/fixtures/data.json", "{}"],
    ]);
    expect(await measureTask(files)).toEqual({
      solutionLines: 2,
      commands: 3,
      distinctTools: 2,
      instructionWords: 6,
      verifierTests: 3,
      verifierAsserts: 3,
    });
  });

  it("accepts a Terminal-Bench 1 solution.sh", async () => {
    const metrics = await measureTask(new Map([["solution.sh", SOLVE]]));
    expect(metrics).toMatchObject({ solutionLines: 2, commands: 3, distinctTools: 2 });
  });

  it("prefers solution/solve.sh over solution.sh", async () => {
    const metrics = await measureTask(new Map([["solution.sh", "ls\n"], ["solution/solve.sh", SOLVE]]));
    expect(metrics.commands).toBe(3);
  });

  it("reports missing files as null, not zero", async () => {
    expect(await measureTask(new Map([["tests/test.sh", "pytest\n"]]))).toEqual({
      solutionLines: null,
      commands: null,
      distinctTools: null,
      instructionWords: null,
      verifierTests: null,
      verifierAsserts: null,
    });
  });

  it("counts a verifier file without tests as zero tests", async () => {
    const metrics = await measureTask(new Map([["tests/conftest.py", "import pytest\n"]]));
    expect(metrics).toMatchObject({ verifierTests: 0, verifierAsserts: 0 });
  });

  describe("a Terminal-Bench 1 solution.yaml", () => {
    it("measures the steps' commands, under solution/ or at the root", async () => {
      expect(await measureTask(new Map([["solution/solution.yaml", STEPS]]))).toMatchObject(SOLVE_COUNTS);
      expect(await measureTask(new Map([["solution.yaml", STEPS]]))).toMatchObject(SOLVE_COUNTS);
    });

    it("joins the commands by newlines, in order", () => {
      expect(solutionStepsScript(STEPS)).toBe("cd /app\njq -r .name in.json | sort > /app/out.txt");
      expect(solutionStepsScript("[]\n")).toBe("");
    });

    it("counts more steps as more commands", async () => {
      const more = `${STEPS}- command: wc -l /app/out.txt\n  block: true\n`;
      expect(await measureTask(new Map([["solution/solution.yaml", more]]))).toMatchObject({ solutionLines: 3, commands: 4, distinctTools: 3 });
    });

    it("comes after solve.sh and solution.sh", async () => {
      const ls = "- command: ls\n";
      expect((await measureTask(new Map([["solution/solution.yaml", ls], ["solution/solve.sh", SOLVE]]))).commands).toBe(3);
      expect((await measureTask(new Map([["solution.yaml", ls], ["solution.sh", SOLVE]]))).commands).toBe(3);
      expect((await measureTask(new Map([["solution/solution.yaml", ls], ["solution.yaml", STEPS]]))).commands).toBe(1);
    });

    it("leaves the solution metrics null when the file is not a list of steps", async () => {
      const notSteps = [
        "- command: ls\n  block: [true\n", // invalid YAML
        "steps:\n  - command: ls\n", // a mapping, not a list
        "- command: ls\n- block: true\n", // a step without a command
        "- command: [ls, -l]\n", // a command that is not a string
        "- ls\n", // a bare string step
        "", // empty
        // an alias bomb: the yaml package refuses to expand it
        "- &a [x, x, x, x, x, x, x, x, x, x]\n- &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n- [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n",
      ];
      for (const text of notSteps) {
        expect(solutionStepsScript(text), text).toBeNull();
        expect(await measureTask(new Map([["solution/solution.yaml", text]])), text).toMatchObject(NO_SOLUTION);
      }
    });
  });
});
