import { memoizeByText } from "./memo";
import { measurePytest } from "./pytest";
import { measureShell } from "./shell";
import { countInstructionWords } from "./words";

// Only the counts are kept: callers of measureTask never see the shared objects.
const shellCounts = memoizeByText(async (text) => {
  const m = await measureShell(text);
  return { lines: m.lines, commands: m.commands, distinctTools: m.distinctTools };
});
const pytestCounts = memoizeByText(async (text) => {
  const m = await measurePytest(text);
  return { tests: m.tests, asserts: m.asserts };
});

export interface TaskMetrics {
  solutionLines: number | null;
  commands: number | null;
  distinctTools: number | null;
  instructionWords: number | null;
  verifierTests: number | null;
  verifierAsserts: number | null;
}

// Harbor's solution first; Terminal-Bench 1 tasks keep theirs at the root.
const SOLUTION_PATHS = ["solution/solve.sh", "solution.sh"] as const;

const normalizePath = (path: string): string => path.replace(/\\/g, "/").replace(/^(\.\/)+/, "");

/** Metrics of one task from its files (path → text, Harbor layout). A metric whose file is
 * missing is null, not 0: "no verifier" and "a verifier with no tests" are different findings. */
export async function measureTask(files: Map<string, string>): Promise<TaskMetrics> {
  const byPath = new Map([...files].map(([path, text]) => [normalizePath(path), text] as const));
  const solution = SOLUTION_PATHS.map((path) => byPath.get(path)).find((text) => text !== undefined);
  const instruction = byPath.get("instruction.md");
  const testSources = [...byPath]
    .filter(([path]) => path.startsWith("tests/") && path.endsWith(".py"))
    .map(([, text]) => text);

  const shell = solution === undefined ? null : await shellCounts(solution);
  let verifierTests: number | null = null;
  let verifierAsserts: number | null = null;
  for (const source of testSources) {
    const pytest = await pytestCounts(source);
    verifierTests = (verifierTests ?? 0) + pytest.tests;
    verifierAsserts = (verifierAsserts ?? 0) + pytest.asserts;
  }
  return {
    solutionLines: shell?.lines ?? null,
    commands: shell?.commands ?? null,
    distinctTools: shell?.distinctTools ?? null,
    instructionWords: instruction === undefined ? null : countInstructionWords(instruction),
    verifierTests,
    verifierAsserts,
  };
}
