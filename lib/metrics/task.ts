import { parseDocument } from "yaml";
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

// Harbor's solution first; Terminal-Bench 1 tasks keep theirs at the root, as a script or as
// keystroke steps (solution.yaml, which the TB1 → Harbor mapping moves under solution/).
const SOLUTION_PATHS = ["solution/solve.sh", "solution.sh"] as const;
const SOLUTION_STEP_PATHS = ["solution/solution.yaml", "solution.yaml"] as const;

const normalizePath = (path: string): string => path.replace(/\\/g, "/").replace(/^(\.\/)+/, "");

/**
 * The shell text of a Terminal-Bench 1 solution.yaml: its steps' `command`s, one per line, so the
 * shell metrics count them. null unless the file is a YAML list of `{command: string, …}` steps.
 */
export function solutionStepsScript(text: string): string | null {
  let steps: unknown;
  try {
    // YAML 1.1, as Terminal-Bench reads it (PyYAML)
    const doc = parseDocument(text, { version: "1.1", logLevel: "error" });
    if (doc.errors.length > 0) return null;
    steps = doc.toJS();
  } catch {
    return null; // too many aliases: not a solution we can measure
  }
  if (!Array.isArray(steps)) return null;
  const commands: string[] = [];
  for (const step of steps) {
    if (step === null || typeof step !== "object" || !("command" in step) || typeof step.command !== "string") return null;
    commands.push(step.command);
  }
  return commands.join("\n");
}

/** The solution as shell text: a script wins over keystroke steps. */
function solutionScript(byPath: ReadonlyMap<string, string>): string | undefined {
  const script = SOLUTION_PATHS.map((path) => byPath.get(path)).find((text) => text !== undefined);
  if (script !== undefined) return script;
  const steps = SOLUTION_STEP_PATHS.map((path) => byPath.get(path)).find((text) => text !== undefined);
  return steps === undefined ? undefined : (solutionStepsScript(steps) ?? undefined);
}

/** Metrics of one task from its files (path → text, Harbor layout). A metric whose file is
 * missing is null, not 0: "no verifier" and "a verifier with no tests" are different findings. */
export async function measureTask(files: Map<string, string>): Promise<TaskMetrics> {
  const byPath = new Map([...files].map(([path, text]) => [normalizePath(path), text] as const));
  const solution = solutionScript(byPath);
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
