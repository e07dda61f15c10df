// Server only: top-level statements of a shell script, parsed with tree-sitter-bash.
//
// The grammar is loaded through lib/metrics/tree-sitter.ts (through lib/metrics/shell-glue):
// web-tree-sitter has one WASM runtime per process, and two modules each calling Parser.init()
// race on first use (both see no runtime, both create one, and a grammar loaded into the loser
// fails) — measured here as an intermittent fallback when pytest and bash files parse together.

import type { Node } from "web-tree-sitter";
import { earlierGlue, glueIn, readRepairingGlueMapped, redirectGlueIn } from "@/lib/metrics/shell-glue";
import { StatementMemo } from "@/lib/metrics/statements";
import type { ParsedScript } from "@/lib/metrics/script-parse";
import { Lru } from "@/lib/rounds/lru";
import { contentKey } from "@/lib/text/content-key";
import { commandKey, normalizeNewlines, type Unit } from "./units";

interface Cut {
  start: number;
  end: number;
  kind: "drop" | "keep";
}

/**
 * Where a script's top-level statements lie, so that what the import read can be stored small and
 * the statements rebuilt from the script (lib/checks/readings). Offsets into the script with LF
 * newlines and no BOM. One entry per statement, in order: `[start, end, …cuts]`, a cut being three
 * numbers (start, end, 1 to keep as a heredoc body or 0 to drop as a comment); `[]` stands for a
 * top-level `&`, which belongs to the statement before it.
 */
export type StatementSpans = number[][];

/**
 * The text of a statement as a summary shows it: comments removed, backslash continuations joined
 * into one line, blank lines dropped, heredoc bodies verbatim. `cuts`: the comments and heredoc
 * bodies inside it, by start.
 */
function statementText(source: string, start: number, end: number, cuts: readonly Cut[]): string {
  let out = "";
  let at = start;
  const plain = (text: string) =>
    text
      .replace(/[ \t]*\\\n[ \t]*/g, " ")
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{2,}/g, "\n");
  for (const cut of cuts) {
    if (cut.start < at) continue; // a comment inside a kept heredoc body, or overlapping cuts
    out += plain(source.slice(at, cut.start));
    at = cut.end;
    if (cut.kind === "keep") out += source.slice(cut.start, cut.end);
    else {
      // The comment goes with the spacing before it, and with its line when it stood alone.
      out = out.replace(/[ \t]+$/, "");
      if ((out === "" || out.endsWith("\n")) && source[at] === "\n") at++;
    }
  }
  out += plain(source.slice(at, end));
  return out.replace(/[ \t]+$/gm, "").replace(/^\n+|\n+$/g, "");
}

/**
 * Top-level statements of a script (`a; b` is two, `a && b` one, a loop or a function with its body
 * one), comments and blank lines left out. Null when the grammar cannot load or the script has a
 * syntax error (the caller falls back to the line-based split).
 */
export async function shellStatements(script: string): Promise<Unit[] | null> {
  const source = normalizeNewlines(script);
  const key = contentKey(source);
  const known = parsed.get(key);
  if (known !== undefined) return known;
  try {
    const spans = await spansOf(source);
    const units = spans && statementsOf(source, spans);
    parsed.set(key, units);
    return units;
  } catch {
    return null; // the grammar did not load (not remembered: the next call tries again)
  }
}

/**
 * Where the statements of a script lie (null: a syntax error), as the import stores it; a grammar
 * that does not load is thrown, not answered as null. Uncached: the import reads each script once.
 */
export async function shellStatementSpans(script: string): Promise<StatementSpans | null> {
  return spansOf(normalizeNewlines(script));
}

/**
 * The spans of `source`, with lines tree-sitter glued onto a command repaired first
 * (lib/metrics/shell-glue: after a `\`-continued pipeline it may run `uniq -c` on into the next
 * statements, which would show as one); offsets are into `source` itself.
 */
async function spansOf(source: string): Promise<StatementSpans | null> {
  const lines = source.split("\n");
  const { reading, toSource } = await readRepairingGlueMapped(source, (tree) => readSpans(tree, lines));
  if (!reading.spans) return null;
  // Every number of a span is an offset but each cut's third, its kind.
  return reading.spans.map((span) => span.map((n, k) => (k >= 2 && (k - 2) % 3 === 2 ? n : toSource(n))));
}

/** The statements `shellStatements` gives, from the script and its stored spans (no parse). */
export function shellStatementsFromSpans(script: string, spans: StatementSpans | null): Unit[] | null {
  return spans && statementsOf(normalizeNewlines(script), spans);
}

/**
 * Statements by script content: each version of a solution is one side of several diffs (its
 * parent's, its children's, the per-round steps), and a parse costs milliseconds. The units are
 * shared between callers, who only read them.
 */
const parsed = new Lru<string, Unit[] | null>(500);

/** Forget every parsed script (benchmarks measure the uncached path with it). */
export function clearShellStatementCache(): void {
  parsed.clear();
  statementCuts.clear();
}

/** One statement's comments and heredoc bodies (start, end, 1 keep / 0 drop, by start) and its
 * first glue, all relative to the statement's start. */
interface StatementCuts {
  cuts: number[];
  gluedAt: number | null;
}

function readCuts(statement: Node, lines: readonly string[]): StatementCuts {
  const base = statement.startIndex;
  // Every comment and heredoc body in one walk (each walk is a call into WASM); the commands in the
  // same walk, for glued lines.
  const cuts: Cut[] = [];
  let gluedAt: number | null = null;
  for (const inner of statement.descendantsOfType(["comment", "heredoc_body", "heredoc_end", "command", "file_redirect"])) {
    if (inner.type === "command") {
      const glue = glueIn(inner, lines);
      gluedAt = earlierGlue(gluedAt, glue, -base);
    } else if (inner.type === "file_redirect") gluedAt = earlierGlue(gluedAt, redirectGlueIn(inner, lines), -base);
    else cuts.push({ start: inner.startIndex, end: inner.endIndex, kind: inner.type === "comment" ? "drop" : "keep" });
  }
  cuts.sort((x, y) => x.start - y.start);
  return { cuts: cuts.flatMap((cut) => [cut.start - base, cut.end - base, cut.kind === "keep" ? 1 : 0]), gluedAt };
}

/** Statements read before, in this thread, by text (lib/metrics/statements). */
const statementCuts = new StatementMemo<StatementCuts>(4_000_000);

function readSpans(script: ParsedScript, lines: readonly string[]): { spans: StatementSpans | null; gluedAt: number | null } {
  if (script.hasError) return { spans: null, gluedAt: null };
  let gluedAt: number | null = null;
  const spans: StatementSpans = [];
  for (const child of script.statements) {
    if (child.type === "comment") continue;
    if (!child.isNamed) {
      if (child.type === "&") spans.push([]);
      continue;
    }
    const start = child.startIndex;
    const read = statementCuts.read(child, (node) => readCuts(node, lines));
    gluedAt = earlierGlue(gluedAt, read.gluedAt, start);
    const span = [start, child.endIndex];
    for (let k = 0; k < read.cuts.length; k += 3) span.push(start + read.cuts[k]!, start + read.cuts[k + 1]!, read.cuts[k + 2]!);
    spans.push(span);
  }
  return { spans, gluedAt };
}

function statementsOf(source: string, spans: StatementSpans): Unit[] {
  const units: Unit[] = [];
  for (const span of spans) {
    if (span.length === 0) {
      // `cmd &` at top level: the operator belongs to the statement before it.
      const last = units[units.length - 1];
      if (last) {
        last.text += " &";
        last.key = commandKey(last.text);
      }
      continue;
    }
    const cuts: Cut[] = [];
    for (let k = 2; k + 2 < span.length; k += 3) cuts.push({ start: span[k]!, end: span[k + 1]!, kind: span[k + 2] === 1 ? "keep" : "drop" });
    const text = statementText(source, span[0]!, span[1]!, cuts);
    if (text !== "") units.push({ text, key: commandKey(text) });
  }
  return units;
}
