// Where a script's top-level statements lie (its outline), so that a script sharing its start with
// one parsed before (a child task's solve.sh repeats its parent's) is parsed only from the last
// statement boundary the two share (tree-sitter's included ranges). The caller keeps the outlines
// of scripts that may come back (lib/ingest/native/read-candidate.ts: accepted tasks' scripts,
// until their children are read) and names them when reading the later script.
// The statements before it are taken as they were: their readings come from the readers' memories
// (./statements), which are keyed by the statements' texts.
//
// A boundary is a place where the earlier script's parse started a top-level statement at the start
// of a line, after whitespace only. Parsing resumes there only when
// - the new script is the same up to it, and its next character can only start a statement;
// - for bash, the earlier script read without a glued line before it (./shell-glue): tree-sitter-bash
//   resolves some ambiguities with text far ahead (a later `&` can pull lines into an earlier
//   pipeline), and a glue is where that shows; the readers confirm how far a script read cleanly;
// - the rest parses without an error (the caller's test; otherwise the whole script is parsed).
import type { Grammar } from "./tree-sitter";

/** A top-level child of a parsed script: a statement, a comment, or an operator (`&`, `;`). */
export interface TopEntry {
  type: string;
  isNamed: boolean;
  startIndex: number;
  endIndex: number;
  startRow: number;
}

/** Where the top-level children of a script's error-free parse lie. Kept for thousands of
 * scripts, so packed: a type and three numbers per child instead of an object. */
export interface Outline {
  grammar: Grammar;
  text: string;
  types: readonly string[];
  /** startIndex, endIndex and startRow of each child; a child that is not named has -1 - startRow */
  spans: Int32Array;
  /** boundaries at or before this offset may be used (the readers' confirmation, for bash) */
  confirmedUpTo: number;
}

export function outlineOf(grammar: Grammar, text: string, entries: readonly TopEntry[], confirmedUpTo: number): Outline {
  const spans = new Int32Array(entries.length * 3);
  entries.forEach((e, i) => spans.set([e.startIndex, e.endIndex, e.isNamed ? e.startRow : -1 - e.startRow], i * 3));
  return { grammar, text, types: entries.map((e) => e.type), spans, confirmedUpTo };
}

/** The first `count` children of an outline. */
export function entriesOf(outline: Outline, count: number): TopEntry[] {
  const out: TopEntry[] = [];
  for (let i = 0; i < count; i++) {
    const row = outline.spans[i * 3 + 2]!;
    out.push({ type: outline.types[i]!, isNamed: row >= 0, startIndex: outline.spans[i * 3]!, endIndex: outline.spans[i * 3 + 1]!, startRow: row >= 0 ? row : -1 - row });
  }
  return out;
}

/** Characters a statement can start with: a new statement, not an operator or a closing word
 * continuing the one before (`|`, `&&`, `)`, `}`, `\`, an indented block in Python). A Python
 * comment is not one: the scanner closes an indented block only at the next line of code, so a
 * comment after a block may still belong to it. */
const STATEMENT_START: Record<Grammar, RegExp> = {
  bash: /[A-Za-z0-9_#$"'[({!./~-]/,
  python: /[A-Za-z0-9_@"'[({]/,
};

/** A resumption point: where the parse restarts and the entries of the earlier script before it. */
export interface SharedStart {
  at: number;
  row: number;
  entries: TopEntry[];
}

/** Scripts shorter than this are parsed whole: the saving would not pay for the lookup. */
const MIN_SHARED = 512;

/** The latest boundary `text` shares with one of the `earlier` scripts of its grammar, or null. */
export function sharedStart(grammar: Grammar, text: string, earlier: Iterable<Outline>): SharedStart | null {
  if (text.length < MIN_SHARED) return null;
  let best: SharedStart | null = null;
  for (const outline of earlier) {
    if (outline.grammar !== grammar || outline.text === text) continue;
    const limit = Math.min(commonPrefix(text, outline.text), outline.confirmedUpTo);
    if (limit <= (best?.at ?? MIN_SHARED)) continue;
    const found = lastBoundary(text, outline, limit);
    if (found && found.at > (best?.at ?? 0)) best = found;
  }
  return best;
}

function lastBoundary(text: string, outline: Outline, limit: number): SharedStart | null {
  const { spans, text: other } = outline;
  const start = STATEMENT_START[outline.grammar];
  for (let i = outline.types.length - 1; i > 0; i--) {
    const at = spans[i * 3]!;
    if (at > limit || at >= text.length) continue;
    if (at < MIN_SHARED) return null;
    if (other.charCodeAt(at - 1) !== 10 || !start.test(text[at]!)) continue;
    if (!/^\s*$/.test(other.slice(spans[i * 3 - 2]!, at))) continue;
    const entries = entriesOf(outline, i + 1);
    return { at, row: entries[i]!.startRow, entries: entries.slice(0, i) };
  }
  return null;
}

/** Length of the common start of two strings. */
export function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  // Halving on whole slices is native comparisons; the last stretch char by char.
  let lo = 0;
  let hi = max;
  while (hi - lo > 64) {
    const mid = (lo + hi) >>> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid;
  }
  while (lo < hi && a.charCodeAt(lo) === b.charCodeAt(lo)) lo++;
  return lo;
}
