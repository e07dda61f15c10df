// A task's verifier as one reading: every Python file under tests/ (tests may live in several
// files; conftest.py and helper modules contribute paths but no tests).
import { analysePytest, type PathRef, type PyTestCase } from "./pytest";
import { isPythonVerifierFile, workdirOfDockerfile, type Readings } from "./readings";
import { analyseShell, type ShellAnalysis } from "./shell";
import type { AnalysedTask, CheckFile, CheckTask } from "./types";

export interface VerifierTest extends PyTestCase {
  file: string;
}

export interface VerifierPath extends PathRef {
  file: string;
}

export interface VerifierAnalysis {
  /** the verifier's files (tests/…), any kind */
  files: string[];
  /** Python files under tests/ that were read */
  pythonFiles: string[];
  tests: VerifierTest[];
  asserts: number;
  /** every absolute path the verifier's Python files spell */
  paths: VerifierPath[];
}

const isTestModule = (path: string): boolean => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(path);

export const isVerifierFile = (path: string): boolean => path.startsWith("tests/");

export async function analyseVerifier(files: Iterable<CheckFile>, readings?: Readings): Promise<VerifierAnalysis> {
  const out: VerifierAnalysis = { files: [], pythonFiles: [], tests: [], asserts: 0, paths: [] };
  const sorted = [...files].filter((f) => isVerifierFile(f.path)).sort((a, b) => a.path.localeCompare(b.path));
  for (const f of sorted) {
    out.files.push(f.path);
    if (!isPythonVerifierFile(f.path)) continue;
    out.pythonFiles.push(f.path);
    const a = readings?.pytest(f.hash) ?? (await analysePytest(f.text, f.hash));
    for (const p of a.paths) out.paths.push({ ...p, file: f.path });
    if (!isTestModule(f.path)) continue;
    for (const t of a.tests) out.tests.push({ ...t, file: f.path });
    out.asserts += a.asserts;
  }
  return out;
}

/** The directory the Dockerfile leaves the solution in (its last WORKDIR), when it is literal. */
export function workdirOf(task: CheckTask): string | null {
  return workdirOfDockerfile(task.files.get("environment/Dockerfile")?.text);
}

/** Parses the verifier, and the solution unless `solution` is false (only a child's new step is
 * ever read from it: seeds and tasks read as someone's parent skip the parse). A reading stored at
 * import (`readings`) is used instead of a parse. */
export async function analyseTask(task: CheckTask, opts: { solution?: boolean; readings?: Readings } = {}): Promise<AnalysedTask> {
  const verifier = await analyseVerifier(task.files.values(), opts.readings);
  const solve = opts.solution === false ? undefined : task.files.get("solution/solve.sh");
  let solution: ShellAnalysis | null = null;
  if (solve) {
    const workdir = workdirOf(task);
    const reading = opts.readings?.shell(solve.hash, workdir) ?? (await analyseShell(solve.text, { key: solve.hash, workdir }));
    // A script tree-sitter cannot read cleanly is not read at all: no guessed artifacts.
    solution = reading.hasError ? null : reading;
  }
  return { ...task, verifier, solution };
}
