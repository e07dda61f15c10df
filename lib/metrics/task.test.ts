import { describe, expect, it } from "vitest";
import { measureTask } from "./task";

const SOLVE = "#!/bin/bash\n# reference solution\ncd /app\njq -r .name in.json | sort > /app/out.txt\n";
const TEST_OUTPUTS = "def test_out():\n    assert open('/app/out.txt').read()\n    assert True\n";
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
});
