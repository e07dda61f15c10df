import type { Node, Parser, Tree } from "web-tree-sitter";
import { outlineOf, sharedAround, sharedStart, type Outline, type SharedAround, type TopEntry } from "./outlines";
import { activeScope, parsedChars, parseFresh, parserFor, pointAt, withTree, type Grammar, type ReuseScope } from "./tree-sitter";

// Statement readers' parses: inside a reuse scope (./tree-sitter `withTreeReuse`) a script is parsed
// from the last statement boundary it shares with one read before, the statements before it taken
// from that script's outline (./outlines), or whole.

/** A top-level child of a script as the statement readers see it. `node` is null for a statement
 * taken from an earlier script's outline (./outlines): its reading must come from a memory
 * (./statements), and a miss there sends the script to a whole parse (`PrefixMiss`). */
export interface TopLevel extends TopEntry {
  /** node type and text: what the readers' memories are keyed by */
  key: string;
  node: Node | null;
}

/** A script as the statement readers get it. */
export interface ParsedScript {
  text: string;
  /** the whole tree has an error: read it whole from `root` */
  hasError: boolean;
  /** the whole tree's root; null when the script was parsed from a shared start */
  root: Node | null;
  /** every top-level child, named or not, in order */
  statements: TopLevel[];
}

/** Thrown by a reader that needs a statement it has not read before and has no node for. */
export class PrefixMiss extends Error {
  constructor() {
    super("a statement taken from an earlier script is not remembered");
  }
}

/** How scripts were parsed in this thread (benchmarks and tests): whole, from a shared start,
 * around an earlier script's run of statements, or from a shared start and then whole again (a
 * reader missed a statement, or the rest had an error). */
export const parseCounts = { whole: 0, fromShared: 0, around: 0, wholeAgain: 0 };

let sharedStarts = true;

/** Whether scripts may be parsed from a start they share with an earlier one (on by default;
 * benchmarks and equivalence tests compare with it off). */
export function useSharedStarts(on: boolean): void {
  sharedStarts = on;
}

/** The readers read `text` without a glue up to `upTo` (./shell-glue): its statements before there
 * may start another script's parse. Bash outlines are confirmed so; Python ones are whole. */
export function confirmOutline(grammar: Grammar, text: string, upTo: number): void {
  const outline = activeScope()?.outlines.find((o) => o.grammar === grammar && o.text === text);
  if (outline && upTo > outline.confirmedUpTo) outline.confirmedUpTo = upTo;
}

/** `text` read cleanly once a reader had written the characters at `inserted` (offsets in `text`)
 * into the script it was given (./shell-glue): a later script sharing that script's start may take
 * the same characters before its parse (`repairedOutlines`). */
export function noteInserted(grammar: Grammar, text: string, inserted: readonly number[]): void {
  const outline = activeScope()?.outlines.find((o) => o.grammar === grammar && o.text === text);
  if (outline) outline.inserted = Int32Array.from(inserted).sort();
}

/** The outlines of the scripts read before this scope (its `earlier`: a parent task's) that have
 * characters noted (`noteInserted`). Not the scope's own: every reader of a text takes the same
 * path to its repaired text, so that each one's memory holds what the next script takes. */
export function repairedOutlines(grammar: Grammar): Outline[] {
  const scope = activeScope();
  if (!scope || !sharedStarts) return [];
  return scope.earlier.filter((o) => o.grammar === grammar && o.inserted !== undefined);
}

function topLevel(text: string, entry: TopEntry, node: Node | null): TopLevel {
  const { type, isNamed, startIndex, endIndex, startRow } = entry;
  return { type, isNamed, startIndex, endIndex, startRow, key: entry.key ?? `${type}\u0000${text.slice(startIndex, endIndex)}`, node };
}

function entryOf(node: Node): TopEntry {
  return { type: node.type, isNamed: node.isNamed, startIndex: node.startIndex, endIndex: node.endIndex, startRow: node.startPosition.row };
}

function wholeScript(text: string, tree: Tree): ParsedScript {
  const root = tree.rootNode;
  return { text, hasError: root.hasError, root, statements: root.children.map((node) => topLevel(text, entryOf(node), node)) };
}

/**
 * Parse `source` from the latest statement boundary it shares with a script read before in this
 * thread (the scope's earlier texts and its own scripts), or whole. The tree is the scope's to keep.
 * Null when the parse from a shared start has an error and `wholeOnError` is false.
 */
function parseScript(parser: Parser, grammar: Grammar, source: string, scope: ReuseScope, wholeOnError: false): { script: ParsedScript; tree: Tree } | null;
function parseScript(parser: Parser, grammar: Grammar, source: string, scope: ReuseScope): { script: ParsedScript; tree: Tree };
function parseScript(parser: Parser, grammar: Grammar, source: string, scope: ReuseScope, wholeOnError = true): { script: ParsedScript; tree: Tree } | null {
  // An outline packs what it needs of the statements (not their nodes).
  const remember = (statements: TopLevel[], confirmedUpTo: number) => scope.outlines.push(outlineOf(grammar, source, statements, confirmedUpTo));
  const earlier = [...scope.earlier, ...scope.outlines];
  const shared = sharedStarts ? sharedStart(grammar, source, earlier) : null;
  const around = sharedStarts ? sharedAround(grammar, source, earlier, shared) : null;
  if (around) {
    const parsed = parseAround(parser, grammar, source, around);
    if (parsed) {
      remember(parsed.statements, grammar === "bash" ? around.head.at : source.length);
      parseCounts.around++;
      return { script: { text: source, hasError: false, root: null, statements: parsed.statements }, tree: parsed.tree };
    }
  }
  if (shared) {
    parsedChars[grammar] += source.length - shared.at;
    const tree = parser.parse(source, null, {
      includedRanges: [{ startIndex: shared.at, endIndex: source.length, startPosition: { row: shared.row, column: 0 }, endPosition: pointAt(source, source.length) }],
    });
    if (tree && !tree.rootNode.hasError) {
      const statements = [...shared.entries.map((e) => topLevel(source, e, null)), ...tree.rootNode.children.map((node) => topLevel(source, entryOf(node), node))];
      remember(statements, grammar === "bash" ? shared.at : source.length);
      parseCounts.fromShared++;
      return { script: { text: source, hasError: false, root: null, statements }, tree };
    }
    tree?.delete();
    if (!wholeOnError) return null;
    parseCounts.wholeAgain++;
  } else parseCounts.whole++;
  const tree = parseFresh(parser, grammar, source);
  const script = wholeScript(source, tree);
  if (!script.hasError) remember(script.statements, grammar === "bash" ? 0 : source.length);
  return { script, tree };
}

/** `source` parsed in the two ranges around an earlier script's run of statements (./outlines
 * `sharedAround`), or null when the parse has an error or a top-level child reaching across the run
 * (text inserted before the run that the run's first statement would have ended, as a decorator). */
function parseAround(parser: Parser, grammar: Grammar, source: string, around: SharedAround): { statements: TopLevel[]; tree: Tree } | null {
  const { head, from, fromRow, to, toRow } = around;
  const ranges = [
    ...(from > head.at ? [{ startIndex: head.at, endIndex: from, startPosition: { row: head.row, column: 0 }, endPosition: { row: fromRow, column: 0 } }] : []),
    { startIndex: to, endIndex: source.length, startPosition: { row: toRow, column: 0 }, endPosition: pointAt(source, source.length) },
  ];
  for (const r of ranges) parsedChars[grammar] += r.endIndex - r.startIndex;
  const tree = parser.parse(source, null, { includedRanges: ranges });
  if (!tree) return null;
  const nodes = tree.rootNode.children;
  if (tree.rootNode.hasError || nodes.some((n) => n.startIndex < to && n.endIndex > from)) {
    tree.delete();
    return null;
  }
  const before = nodes.filter((n) => n.endIndex <= from);
  const after = nodes.slice(before.length);
  const statements = [
    ...head.entries.map((e) => topLevel(source, e, null)),
    ...before.map((node) => topLevel(source, entryOf(node), node)),
    ...around.entries.map((e) => topLevel(source, e, null)),
    ...after.map((node) => topLevel(source, entryOf(node), node)),
  ];
  return { statements, tree };
}

/**
 * Parse `source` and hand its top-level statements to `use` (the statement readers: ./statements).
 * Inside `withTreeReuse` the parse may start at the last statement boundary the source shares with
 * a script read before (./outlines), the statements before it taken from that script; when `use`
 * needs one of those it has not read before (`PrefixMiss`), the source is parsed whole and read
 * again. Trees are deleted as in `withTree`.
 */
export async function withStatements<T>(grammar: Grammar, source: string, use: (script: ParsedScript) => T): Promise<T> {
  const parser = await parserFor(grammar);
  const scope = activeScope();
  if (!scope) return withTree(grammar, source, (tree) => use(wholeScript(source, tree)));
  let kept = scope.scripts.find((s) => s.grammar === grammar && s.source === source);
  if (!kept) {
    const whole = scope.trees.find((t) => t.grammar === grammar && t.source === source);
    // A tree `withTree` parsed stays the scope's there (null here: deleted once).
    const parsed = whole ? { script: wholeScript(source, whole.tree), tree: null } : parseScript(parser, grammar, source, scope);
    kept = { grammar, source, ...parsed };
    scope.scripts.push(kept);
  }
  try {
    return use(kept.script);
  } catch (err) {
    if (!(err instanceof PrefixMiss) || kept.script.root) throw err;
    parseCounts.wholeAgain++;
    const tree = parseFresh(parser, grammar, source);
    kept.tree?.delete();
    kept.tree = tree;
    kept.script = wholeScript(source, tree);
    return use(kept.script);
  }
}

/**
 * `withStatements` for a text the caller may do without (./shell-glue: a script with an earlier
 * script's repairs written in): null, `use` not called, when its parse from a shared start has an
 * error, where `withStatements` would parse it whole again.
 */
export async function withCleanStatements<T>(grammar: Grammar, source: string, use: (script: ParsedScript) => T): Promise<T | null> {
  const scope = activeScope();
  if (scope) {
    if (scope.unclean.has(source)) return null;
    const known = scope.scripts.some((s) => s.grammar === grammar && s.source === source) || scope.trees.some((t) => t.grammar === grammar && t.source === source);
    if (!known) {
      const parsed = parseScript(await parserFor(grammar), grammar, source, scope, false);
      if (!parsed) {
        scope.unclean.add(source);
        return null;
      }
      scope.scripts.push({ grammar, source, ...parsed });
    }
  }
  return withStatements(grammar, source, use);
}
