// Server only (parsers): the step summary of one lineage step — what the child's solution, verifier
// and instruction add over its parent — and of a whole chain seed → … → task.

import { pytestTestNames } from "@/lib/metrics/pytest";
import { withTreeReuse } from "@/lib/metrics/tree-sitter";
import { Lru } from "@/lib/rounds/lru";
import { contentKey } from "@/lib/text/content-key";
import { clearShellStatementCache, shellStatements, shellStatementsFromSpans, type StatementSpans } from "./bash";
import { diffFiles, type FilesDiff, type TaskFiles } from "./files";
import { instructionSentences, newUnits, normalizeNewlines, shellCommandsByLine, type Unit } from "./units";

export const SOLUTION_PATH = "solution/solve.sh";
export const INSTRUCTION_PATH = "instruction.md";

export interface StepSummary {
  /** statements the child's solution/solve.sh adds, each as one item (continuations joined into
   * one line; a heredoc, loop or function with its body, so possibly several lines) */
  commands: string[];
  removedCommands: string[];
  /** new pytest test ids in tests/**.py: `test_x`, `TestThing::test_y`; prefixed with the file
   * (`test_more.py::test_x`) when the two versions hold more than one test file */
  tests: string[];
  removedTests: string[];
  /** sentences and list items of instruction.md new in the child, in its order */
  sentences: string[];
  removedSentences: string[];
  /** how the commands were compared: parsed statements, or the line-based fallback */
  commandParser: "tree-sitter-bash" | "lines";
}

/**
 * What the import already read of one side's files (lib/checks/readings: stored by blob, looked up
 * by the data layer), by path: a file with a reading is not parsed again. Absent: parsed as usual.
 */
export interface KnownReadings {
  /** where solution/solve.sh's statements lie (null: a syntax error), see ./bash */
  statements?: StatementSpans | null;
  /** `testNamesOf` by tests/**.py path */
  tests?: Record<string, string[]>;
}

export interface StepReadings {
  parent?: KnownReadings;
  child?: KnownReadings;
}

function fileOf(files: TaskFiles, path: string): string {
  return Object.hasOwn(files, path) ? (files[path] ?? "") : "";
}

const statementsOf = (script: string, known: KnownReadings | undefined): Promise<Unit[] | null> =>
  known?.statements !== undefined ? Promise.resolve(shellStatementsFromSpans(script, known.statements)) : shellStatements(script);

async function commandUnits(parent: string, child: string, known: StepReadings): Promise<{ prev: Unit[]; next: Unit[]; parser: StepSummary["commandParser"] }> {
  const [prev, next] = await Promise.all([statementsOf(parent, known.parent), statementsOf(child, known.child)]);
  // Both sides must be read the same way, or every statement would look new.
  if (prev && next) return { prev, next, parser: "tree-sitter-bash" };
  return { prev: commandsByLine(parent), next: commandsByLine(child), parser: "lines" };
}

/** The line-based split by content: for a long script that does not parse it costs as much as a parse. */
const splitByLine = new Lru<string, Unit[]>(200);

function commandsByLine(script: string): Unit[] {
  const key = contentKey(script);
  const known = splitByLine.get(key);
  if (known) return known;
  const units = shellCommandsByLine(script);
  splitByLine.set(key, units);
  return units;
}

const TOP_LEVEL_TEST_RE = /^(?:async[ \t]+)?def[ \t]+(test\w*)[ \t]*\(/gm;

/** Test names by file content, as for shell statements (./bash). */
const testNames = new Lru<string, string[]>(2_000);

/** Forget every parse the summaries remember (benchmarks measure the uncached path with it). */
export function clearSummaryCaches(): void {
  clearShellStatementCache();
  splitByLine.clear();
  testNames.clear();
}

async function testNamesOf(source: string): Promise<string[]> {
  const key = contentKey(source);
  const known = testNames.get(key);
  if (known) return known;
  try {
    const names = await pytestTestNames(source);
    testNames.set(key, names);
    return names;
  } catch {
    // The grammar did not load: module-level test functions by pattern.
    return [...normalizeNewlines(source).matchAll(TOP_LEVEL_TEST_RE)].map((m) => m[1]!);
  }
}

export const isTestFile = (path: string) => path.startsWith("tests/") && path.endsWith(".py");

/** The files a step summary reads (what another thread needs to be sent of a task). */
export function summaryInputs(files: TaskFiles): TaskFiles {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const path of Object.keys(files)) {
    if (path === SOLUTION_PATH || path === INSTRUCTION_PATH || isTestFile(path)) out[path] = fileOf(files, path);
  }
  return out;
}

async function testUnits(files: TaskFiles, prefixed: boolean, known: KnownReadings | undefined): Promise<Unit[]> {
  const paths = Object.keys(files).filter(isTestFile).sort();
  const read = known?.tests;
  const perFile = await Promise.all(paths.map((path) => (read && Object.hasOwn(read, path) ? read[path]! : testNamesOf(fileOf(files, path)))));
  return paths.flatMap((path, k) =>
    perFile[k]!.map((name) => ({ key: `${path}::${name}`, text: prefixed ? `${path.slice("tests/".length)}::${name}` : name })),
  );
}

/**
 * What a child adds over its parent (files as `{path: text}`): new top-level statements of
 * solution/solve.sh (multiset of statements, comments and spacing ignored), new pytest tests in
 * tests/**.py, new sentences of instruction.md (sets of normalized sentences: reordering or
 * re-wrapping is not new). The removed counterparts are listed too. `known`: what the import read of
 * either side's files; the result is the same with or without it, only the parses are saved.
 */
export async function stepSummary(parentFiles: TaskFiles, childFiles: TaskFiles, known: StepReadings = {}): Promise<StepSummary> {
  // The child's files are parsed from the parent's trees (mostly the same text).
  return withTreeReuse(() => summarize(parentFiles, childFiles, known));
}

async function summarize(parentFiles: TaskFiles, childFiles: TaskFiles, known: StepReadings): Promise<StepSummary> {
  const testFiles = new Set([...Object.keys(parentFiles), ...Object.keys(childFiles)].filter(isTestFile));
  const prefixed = testFiles.size > 1;
  const [commands, prevTests, nextTests] = await Promise.all([
    commandUnits(fileOf(parentFiles, SOLUTION_PATH), fileOf(childFiles, SOLUTION_PATH), known),
    testUnits(parentFiles, prefixed, known.parent),
    testUnits(childFiles, prefixed, known.child),
  ]);
  const prevSentences = instructionSentences(fileOf(parentFiles, INSTRUCTION_PATH));
  const nextSentences = instructionSentences(fileOf(childFiles, INSTRUCTION_PATH));
  return {
    commands: newUnits(commands.prev, commands.next),
    removedCommands: newUnits(commands.next, commands.prev),
    tests: newUnits(prevTests, nextTests, true),
    removedTests: newUnits(nextTests, prevTests, true),
    sentences: newUnits(prevSentences, nextSentences, true),
    removedSentences: newUnits(nextSentences, prevSentences, true),
    commandParser: commands.parser,
  };
}

export interface ChainLink {
  id: string;
  files: TaskFiles;
  /** what the import read of its files (lib/checks/readings), when it stored that */
  readings?: KnownReadings;
}

export interface SequenceStep {
  from: string;
  to: string;
  summary: StepSummary;
  /** files per status and changed lines of this step */
  counts: FilesDiff["counts"];
}

export interface SequenceSummary {
  /** one step per ancestor → child pair, from the seed down */
  steps: SequenceStep[];
  /** the first link → the last as one step; null for a chain of fewer than two */
  total: SequenceStep | null;
}

async function step(from: ChainLink, to: ChainLink): Promise<SequenceStep> {
  return {
    from: from.id,
    to: to.id,
    summary: await stepSummary(from.files, to.files, { parent: from.readings, child: to.readings }),
    counts: diffFiles(from.files, to.files).counts,
  };
}

/** Per-round summaries of a chain ordered seed → … → task, and the whole chain as one step. */
export async function sequenceSummary(chain: readonly ChainLink[]): Promise<SequenceSummary> {
  const steps: SequenceStep[] = [];
  // One at a time: each step parses a few files; parallelism buys nothing on one WASM instance.
  for (let k = 1; k < chain.length; k++) steps.push(await step(chain[k - 1]!, chain[k]!));
  const total = chain.length >= 2 ? await step(chain[0]!, chain[chain.length - 1]!) : null;
  return { steps, total };
}
