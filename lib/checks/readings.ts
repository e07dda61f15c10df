// Server only: what the consistency checks read of a task's files, computed once where the files
// are parsed anyway (the importer's reader threads, beside the metrics) and stored by blob hash in
// `check_readings`, so that a check reads no source. A reading is a pure function of the blob's
// bytes (and, for a solution, of the directory it starts in), so it never goes stale for its
// blob; the reader name carries its version, and readings of another version are ignored (a
// check then parses the file itself). **Bump PYTEST_READINGS_VERSION whenever pytest.ts reads
// differently, SHELL_READINGS_VERSION whenever shell.ts or shell-tree.ts does.**
import { shellStatementSpans, type StatementSpans } from "@/lib/diff/bash";
import type { KnownReadings } from "@/lib/diff/summary";
import { pytestTestNames } from "@/lib/metrics/pytest";
import { analysePytest, type PytestAnalysis } from "./pytest";
import { analyseShell, type ShellAnalysis } from "./shell";

/** 3: each path once per line and kind (2 listed a `Path("/x")` twice: the call and its string). */
export const PYTEST_READINGS_VERSION = 3;
/** 4: what the Python programs a solution runs or writes (heredocs) write is read too. 5: a
 * substring offset `${a:$i}` no longer makes the script a syntax error to tree-sitter, a word it
 * split after a `$name` (`$D/x-$n.gz`) is read whole, and a command name on the line after its
 * assignments is glue (lib/metrics/shell-glue). 6: a redirect ending a pipeline is placed on the
 * whole pipeline however tree-sitter nests it (lib/checks/shell-tree). */
export const SHELL_READINGS_VERSION = 6;

export const pytestReader = (): string => `pytest@${PYTEST_READINGS_VERSION}`;
/** A solution's reading depends on the directory it starts in (the Dockerfile's last WORKDIR). */
export const shellReader = (workdir: string | null): string => `shell@${SHELL_READINGS_VERSION}:${workdir ?? ""}`;

export interface StoredReading {
  hash: string;
  reader: string;
  reading: PytestAnalysis | ShellAnalysis | StepShellReading | StepPytestReading;
}

/** Readings stored for a batch of files, by reader and blob hash. */
export class Readings {
  private readonly map = new Map<string, unknown>();

  static of(rows: Iterable<StoredReading>): Readings {
    const r = new Readings();
    for (const row of rows) r.map.set(`${row.reader}\u0000${row.hash}`, row.reading);
    return r;
  }

  pytest(hash: string): PytestAnalysis | undefined {
    return this.map.get(`${pytestReader()}\u0000${hash}`) as PytestAnalysis | undefined;
  }

  shell(hash: string, workdir: string | null): ShellAnalysis | undefined {
    return this.map.get(`${shellReader(workdir)}\u0000${hash}`) as ShellAnalysis | undefined;
  }

  /** What a step summary reads of one side's files ({path, blob hash}), as far as it is stored. */
  forSteps(files: Iterable<{ path: string; hash: string }>): KnownReadings {
    const known: KnownReadings = {};
    const tests: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    for (const f of files) {
      if (f.path === "solution/solve.sh") {
        const r = this.map.get(`${STEP_SHELL_READER}\u0000${f.hash}`) as StepShellReading | undefined;
        if (r) known.statements = r.spans;
      } else if (isPythonVerifierFile(f.path)) {
        const r = this.map.get(`${STEP_PYTEST_READER}\u0000${f.hash}`) as StepPytestReading | undefined;
        if (r) tests[f.path] = r.names;
      }
    }
    if (Object.keys(tests).length > 0) known.tests = tests;
    return known;
  }
}

/** The directory a Dockerfile leaves the solution in (its last WORKDIR), when it is literal. */
export function workdirOfDockerfile(dockerfile: string | undefined): string | null {
  if (!dockerfile) return null;
  let dir: string | null = null;
  for (const m of dockerfile.matchAll(/^\s*WORKDIR\s+(\S+)\s*$/gim)) {
    const v = m[1] ?? "";
    dir = v.startsWith("/") && !v.includes("$") ? v.replace(/\/+$/, "") || "/" : null;
  }
  return dir;
}

export const isPythonVerifierFile = (path: string): boolean => path.startsWith("tests/") && path.endsWith(".py");

/**
 * What the checks will read of one task, from its files (path → blob hash and text): every Python
 * file under tests/, and solution/solve.sh unless `solution` is false (a seed's solution is never
 * read by the checks).
 */
export async function readForChecks(files: Iterable<{ path: string; hash: string; text: string }>, opts: { solution: boolean }): Promise<StoredReading[]> {
  const all = [...files];
  const out: StoredReading[] = [];
  for (const f of all) {
    if (isPythonVerifierFile(f.path)) out.push({ hash: f.hash, reader: pytestReader(), reading: await analysePytest(f.text, f.hash) });
  }
  const solve = opts.solution ? all.find((f) => f.path === "solution/solve.sh") : undefined;
  if (solve) {
    const workdir = workdirOfDockerfile(all.find((f) => f.path === "environment/Dockerfile")?.text);
    out.push({ hash: solve.hash, reader: shellReader(workdir), reading: await analyseShell(solve.text, { key: solve.hash, workdir }) });
  }
  return out;
}

// What the step summary (lib/diff/summary) parses of a task, read at import from the same trees
// as the metrics: where solve.sh's top-level statements lie and each test file's pytest ids. Its
// own version: **bump STEP_READINGS_VERSION whenever lib/diff/bash.ts's spans or the metrics'
// pytestTestNames give something else** (the statements' texts are rebuilt from the spans when
// read, so a change of how a span becomes text needs no bump).
/** 4: a script with a substring offset `${a:$i}` has spans, and a line of assignments glued onto
 * the next line's command is its own statement (lib/metrics/shell-glue). */
export const STEP_READINGS_VERSION = 4;
export const STEP_SHELL_READER = `steps-shell@${STEP_READINGS_VERSION}`;
export const STEP_PYTEST_READER = `steps-pytest@${STEP_READINGS_VERSION}`;

/** Where solve.sh's statements lie (null: a syntax error; the summary then compares lines). */
export interface StepShellReading {
  spans: StatementSpans | null;
}

export interface StepPytestReading {
  names: string[];
}

/**
 * What a step summary will read of one task's files (path, blob hash, text): solution/solve.sh and
 * every Python file under tests/, of any task (any can be either side of a diff). A grammar that
 * does not load is thrown: nothing is stored rather than a wrong reading.
 */
export async function readForSteps(files: Iterable<{ path: string; hash: string; text: string }>): Promise<StoredReading[]> {
  const out: StoredReading[] = [];
  for (const f of files) {
    if (f.path === "solution/solve.sh") {
      out.push({ hash: f.hash, reader: STEP_SHELL_READER, reading: { spans: await shellStatementSpans(f.text) } satisfies StepShellReading });
    } else if (isPythonVerifierFile(f.path)) {
      out.push({ hash: f.hash, reader: STEP_PYTEST_READER, reading: { names: await pytestTestNames(f.text) } satisfies StepPytestReading });
    }
  }
  return out;
}
