// The step summary without the tree-sitter parsers. lib/diff/summary (parsed shell statements,
// pytest through tree-sitter) cannot be bundled by Next today: lib/metrics/tree-sitter.ts resolves
// its grammar packages with a computed require, which Turbopack rejects. Until that is literal,
// pages use this line-based equivalent with the same result shape.
import "server-only";
import { diffFiles, type TaskFiles } from "@/lib/diff";
import type { SequenceStep, StepSummary } from "@/lib/diff/summary";
import { instructionSentences, newUnits, normalizeNewlines, shellCommandsByLine, type Unit } from "@/lib/diff/units";

const SOLUTION = "solution/solve.sh";
const INSTRUCTION = "instruction.md";
const own = (files: TaskFiles, path: string) => (Object.hasOwn(files, path) ? (files[path] ?? "") : "");
const isTestFile = (path: string) => path.startsWith("tests/") && path.endsWith(".py");

/** `test_x` and `TestThing::test_y`, by indentation: a class owns the defs indented under it. */
export function pytestNames(source: string): string[] {
  const names: string[] = [];
  let cls: { name: string; indent: number } | null = null;
  for (const line of normalizeNewlines(source).split("\n")) {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === "") continue;
    if (cls && indent <= cls.indent) cls = null;
    const c = /^(\s*)class\s+(Test\w*)/.exec(line);
    if (c) {
      cls = { name: c[2] ?? "", indent: c[1]?.length ?? 0 };
      continue;
    }
    const d = /^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(/.exec(line);
    if (d && (cls || (d[1]?.length ?? 0) === 0)) names.push(cls ? `${cls.name}::${d[2]}` : (d[2] ?? ""));
  }
  return names;
}

function testUnits(files: TaskFiles, prefixed: boolean): Unit[] {
  return Object.keys(files)
    .filter(isTestFile)
    .sort()
    .flatMap((path) => pytestNames(own(files, path)).map((name) => ({ key: `${path}::${name}`, text: prefixed ? `${path.slice(6)}::${name}` : name })));
}

export function summarizeStep(parent: TaskFiles, child: TaskFiles): StepSummary {
  const prefixed = new Set([...Object.keys(parent), ...Object.keys(child)].filter(isTestFile)).size > 1;
  const [pc, cc] = [shellCommandsByLine(own(parent, SOLUTION)), shellCommandsByLine(own(child, SOLUTION))];
  const [pt, ct] = [testUnits(parent, prefixed), testUnits(child, prefixed)];
  const [ps, cs] = [instructionSentences(own(parent, INSTRUCTION)), instructionSentences(own(child, INSTRUCTION))];
  return {
    commands: newUnits(pc, cc),
    removedCommands: newUnits(cc, pc),
    tests: newUnits(pt, ct, true),
    removedTests: newUnits(ct, pt, true),
    sentences: newUnits(ps, cs, true),
    removedSentences: newUnits(cs, ps, true),
    commandParser: "lines",
  };
}

export function summarizeSequence(chain: readonly { id: string; files: TaskFiles }[]): { steps: SequenceStep[]; total: SequenceStep | null } {
  const step = (a: { id: string; files: TaskFiles }, b: { id: string; files: TaskFiles }): SequenceStep => ({
    from: a.id,
    to: b.id,
    summary: summarizeStep(a.files, b.files),
    counts: diffFiles(a.files, b.files).counts,
  });
  const steps: SequenceStep[] = [];
  for (let k = 1; k < chain.length; k++) {
    const a = chain[k - 1];
    const b = chain[k];
    if (a && b) steps.push(step(a, b));
  }
  const first = chain[0];
  const last = chain[chain.length - 1];
  return { steps, total: chain.length >= 2 && first && last ? step(first, last) : null };
}
