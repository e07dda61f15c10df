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
  /** what the readers' memories know the statement by (its type and text: ./tree-sitter), once
   * made: a later script taking the statement from this one's outline takes the same string, whose
   * hash is already computed, instead of cutting and hashing its text again */
  key?: string;
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
  /** each child's key (TopEntry), when it had one */
  keys: readonly (string | undefined)[];
  /** offsets in `text`, ascending, of characters a reader wrote into the script it was given before
   * the text read cleanly (./shell-glue's repairs): `text` less them is that script */
  inserted?: Int32Array;
}

export function outlineOf(grammar: Grammar, text: string, entries: readonly TopEntry[], confirmedUpTo: number): Outline {
  const spans = new Int32Array(entries.length * 3);
  entries.forEach((e, i) => spans.set([e.startIndex, e.endIndex, e.isNamed ? e.startRow : -1 - e.startRow], i * 3));
  // Named children's keys only: the readers look every one of those up, which makes V8 flatten the
  // key into a string of its own. An operator's key (`&`, `;`) is never looked up and stays a join
  // pointing into the whole text it was cut from: handed on down a lineage, it would keep every
  // ancestor's script alive.
  return { grammar, text, types: entries.map((e) => e.type), spans, confirmedUpTo, keys: entries.map((e) => (e.isNamed ? e.key : undefined)) };
}

/** The first `count` children of an outline. */
export function entriesOf(outline: Outline, count: number): TopEntry[] {
  const out: TopEntry[] = [];
  for (let i = 0; i < count; i++) {
    const row = outline.spans[i * 3 + 2]!;
    const entry: TopEntry = { type: outline.types[i]!, isNamed: row >= 0, startIndex: outline.spans[i * 3]!, endIndex: outline.spans[i * 3 + 1]!, startRow: row >= 0 ? row : -1 - row };
    const key = outline.keys[i];
    if (key !== undefined) entry.key = key;
    out.push(entry);
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
    // The same text too (a helper script a child keeps as it was): its last statement is parsed.
    if (outline.grammar !== grammar) continue;
    const limit = Math.min(commonPrefix(text, outline.text), outline.confirmedUpTo);
    if (limit <= (best?.at ?? MIN_SHARED)) continue;
    const found = lastBoundary(text, outline, limit);
    if (found && found.at > (best?.at ?? 0)) best = found;
  }
  return best;
}

function lastBoundary(text: string, outline: Outline, limit: number, min = MIN_SHARED): SharedStart | null {
  for (let i = outline.types.length - 1; i > 0; i--) {
    const at = outline.spans[i * 3]!;
    if (at > limit || at >= text.length) continue;
    if (at < min) return null;
    if (!isBoundary(outline, i, text, at)) continue;
    const entries = entriesOf(outline, i + 1);
    return { at, row: entries[i]!.startRow, entries: entries.slice(0, i) };
  }
  return null;
}

/** Whether the outline's child `i` (not the first) starts a line after whitespace only in the
 * outline's script, and `text`, where the same statement stands at `at`, has a statement start there. */
function isBoundary(outline: Outline, i: number, text: string, at: number): boolean {
  const { spans, text: other } = outline;
  const from = spans[i * 3]!;
  if (other.charCodeAt(from - 1) !== 10 || text.charCodeAt(at - 1) !== 10 || !STATEMENT_START[outline.grammar].test(text[at] ?? "")) return false;
  return /^\s*$/.test(other.slice(spans[i * 3 - 2]!, from));
}

/** Grammars whose scripts may be parsed around a run of an earlier script's statements: Python's
 * statements read the same wherever they stand between others. Bash is not among them: how
 * tree-sitter-bash reads a line can depend on text far ahead (./shell-glue), which the readers
 * confirm only up to a shared start. */
const AROUND: ReadonlySet<Grammar> = new Set(["python"]);

/** A script made of an earlier one's statements with text inserted among them: parsed in two
 * ranges, `[head.at, from)` (the text inserted) and `[to, length)` (the rest), around the run of
 * the earlier script's statements between `from` and `to`. */
export interface SharedAround {
  /** the shared start (at 0 without entries when there is none) */
  head: SharedStart;
  from: number;
  fromRow: number;
  to: number;
  toRow: number;
  /** the earlier script's statements between `from` and `to`, placed where they stand in the script */
  entries: TopEntry[];
}

/** Statements of the earlier script tried as the first of the run that resumes after an insertion. */
const RESUME_TRIES = 4;

/**
 * A child that inserts text near its start (an `import` a new test needs, a line at the top of a
 * script) shares only a few statements before the insertion with its parent, but nearly all after
 * it: the run of the earlier script's statements that resumes after the insertion, when parsing
 * around it leaves at least MIN_SHARED fewer characters to parse than `shared` (the shared start)
 * does. The run starts and ends at statement boundaries of the earlier script that are line starts
 * in both scripts, the next character a statement start; the caller's parse must give no error and
 * no top-level child reaching across from one range into the other.
 */
export function sharedAround(grammar: Grammar, text: string, earlier: Iterable<Outline>, shared: SharedStart | null): SharedAround | null {
  if (!AROUND.has(grammar) || text.length < MIN_SHARED) return null;
  let best: SharedAround | null = null;
  let bestParsed = text.length - (shared?.at ?? 0) - MIN_SHARED;
  for (const outline of earlier) {
    if (outline.grammar !== grammar || outline.text === text) continue;
    const limit = Math.min(commonPrefix(text, outline.text), outline.confirmedUpTo);
    const head = lastBoundary(text, outline, limit, 0) ?? { at: 0, row: 0, entries: [] };
    const found = resumeAfter(text, outline, head);
    if (!found) continue;
    const parsed = found.from - head.at + text.length - found.to;
    if (parsed < bestParsed) {
      best = found;
      bestParsed = parsed;
    }
  }
  return best;
}

function resumeAfter(text: string, outline: Outline, head: SharedStart): SharedAround | null {
  const { spans, types, text: other } = outline;
  const count = types.length;
  let i = head.entries.length;
  for (let tries = 0; i < count && tries < RESUME_TRIES; i++) {
    if (i === 0 || spans[i * 3 + 2]! < 0) continue;
    tries++;
    const b0 = spans[i * 3]!;
    const from = text.indexOf(other.slice(b0, spans[i * 3 + 1]!), head.at);
    if (from < 0 || !isBoundary(outline, i, text, from)) continue;
    // The run goes on while the two texts do; it ends before the last boundary in that stretch that
    // leaves something after it to parse.
    const shift = from - b0;
    const limit = Math.min(b0 + commonPrefix(text.slice(from), other.slice(b0)), outline.confirmedUpTo);
    for (let k = count - 1; k > i; k--) {
      const b1 = spans[k * 3]!;
      if (b1 > limit || b1 + shift >= text.length || !isBoundary(outline, k, text, b1 + shift)) continue;
      const entries = entriesOf(outline, k + 1);
      const fromRow = head.row + countLines(text, head.at, from);
      const rowShift = fromRow - entries[i]!.startRow;
      return {
        head,
        from,
        fromRow,
        to: b1 + shift,
        toRow: entries[k]!.startRow + rowShift,
        entries: entries.slice(i, k).map((e) => ({ ...e, startIndex: e.startIndex + shift, endIndex: e.endIndex + shift, startRow: e.startRow + rowShift })),
      };
    }
    return null;
  }
  return null;
}

/** Line breaks in text[from, to). */
function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) n++;
  return n;
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
