import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import path from "node:path";
import { Edit, Language, Parser, type Node, type Point, type Tree } from "web-tree-sitter";
import { outlineOf, sharedAround, sharedStart, type Outline, type SharedAround, type TopEntry } from "./outlines";

export type Grammar = "bash" | "python";

const requireFromHere = createRequire(import.meta.url);

// The grammar packages ship their wasm in the package root; resolving through package.json
// works under vitest, tsx and Next's server alike (no bundler-relative URLs). The specifiers are
// literal so that Next's bundler can see them (it rejects a computed require).
const PACKAGE_JSON: Record<Grammar, () => string> = {
  bash: () => requireFromHere.resolve("tree-sitter-bash/package.json"),
  python: () => requireFromHere.resolve("tree-sitter-python/package.json"),
};

function wasmPath(grammar: Grammar): string {
  // Inside Next's server bundle `require.resolve` answers a module id (a number), not a path:
  // there the packages are found from the project root, where the server runs.
  let resolved: unknown;
  try {
    resolved = PACKAGE_JSON[grammar]();
  } catch {
    resolved = undefined;
  }
  const dir = typeof resolved === "string" ? path.dirname(resolved) : path.join(process.cwd(), "node_modules", `tree-sitter-${grammar}`);
  return path.join(dir, `tree-sitter-${grammar}.wasm`);
}

let runtime: Promise<void> | undefined;
const parsers = new Map<Grammar, Promise<Parser>>();

async function createParser(grammar: Grammar): Promise<Parser> {
  runtime ??= Parser.init();
  await runtime;
  const language = await Language.load(wasmPath(grammar));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** One parser per grammar per process: loading a grammar costs far more than a parse. */
function parserFor(grammar: Grammar): Promise<Parser> {
  const cached = parsers.get(grammar);
  if (cached) return cached;
  const created = createParser(grammar);
  parsers.set(grammar, created);
  // A failed load must not poison the process: the next call retries.
  created.catch(() => {
    parsers.delete(grammar);
    runtime = undefined;
  });
  return created;
}

/** Trees kept for reuse within one `withTreeReuse` call, with the source each was parsed from. */
interface ReuseScope {
  trees: { grammar: Grammar; source: string; tree: Tree }[];
  /** scripts read from a shared start (withStatements), by grammar and source */
  scripts: { grammar: Grammar; source: string; script: ParsedScript; tree: Tree | null }[];
  /** scripts read before the call (its caller's): a script may resume from their statements */
  earlier: readonly Outline[];
  /** the outlines of the scripts parsed in the call without an error */
  outlines: Outline[];
  /** texts `withCleanStatements` found an error in, parsing from a shared start */
  unclean: Set<string>;
  /** Set when the call has settled: a parse started by work it did not wait for keeps nothing. */
  closed: boolean;
}

const reuseScope = new AsyncLocalStorage<ReuseScope>();

/**
 * Run `fn` with parse reuse: inside it, a parse starts from the tree of the most similar source of
 * the same grammar parsed before in the same call (tree-sitter's incremental parsing, which gives
 * the tree a fresh parse would; a tree with a syntax error is parsed afresh), when the two share at
 * least half of the new source at their start and end — a child task's script mostly repeats its
 * parent's; the same source again reads the same tree. The trees are deleted when `fn` settles.
 * Statement readers (`withStatements`) may also parse a script from the start it shares with one of
 * `earlier` (./outlines); `keep` gets the outlines of the scripts `fn` read, to name later.
 * Outside such a call every parse is a fresh one and nothing is kept.
 */
export async function withTreeReuse<T>(
  fn: () => Promise<T>,
  opts: { earlier?: readonly Outline[]; keep?: (outlines: Outline[]) => void } = {},
): Promise<T> {
  const scope: ReuseScope = { trees: [], scripts: [], earlier: opts.earlier ?? [], outlines: [], unclean: new Set(), closed: false };
  try {
    const result = await reuseScope.run(scope, fn);
    opts.keep?.(scope.outlines);
    return result;
  } finally {
    scope.closed = true;
    for (const kept of scope.trees) kept.tree.delete();
    for (const kept of scope.scripts) kept.tree?.delete();
    scope.trees = [];
    scope.scripts = [];
    scope.unclean.clear();
  }
}

/** The row and column (code units) of `index` in `text`. */
function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) {
    row++;
    lineStart = at + 1;
  }
  return { row, column: index - lineStart };
}

/** The single edit that turns `from` into `to` (everything between their shared start and end). */
export function editBetween(from: string, to: string): { edit: Edit; shared: number } {
  const max = Math.min(from.length, to.length);
  let start = 0;
  while (start < max && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end)) end++;
  // Never split a surrogate pair.
  if (start > 0 && /[\ud800-\udbff]/.test(from[start - 1] ?? "")) start--;
  if (end > 0 && /[\udc00-\udfff]/.test(to[to.length - end] ?? "")) end--;
  const oldEndIndex = from.length - end;
  const newEndIndex = to.length - end;
  const edit = new Edit({
    startIndex: start,
    oldEndIndex,
    newEndIndex,
    startPosition: pointAt(from, start),
    oldEndPosition: pointAt(from, oldEndIndex),
    newEndPosition: pointAt(to, newEndIndex),
  });
  return { edit, shared: start + end };
}

function parseFresh(parser: Parser, grammar: Grammar, source: string): Tree {
  parsedChars[grammar] += source.length;
  const tree = parser.parse(source);
  if (!tree) throw new Error(`tree-sitter-${grammar} returned no tree`);
  return tree;
}

/** A parse inside a reuse scope: from the closest kept tree when it shares enough. */
function parseReusing(parser: Parser, grammar: Grammar, source: string, scope: ReuseScope): Tree {
  let best: { tree: Tree; edit: Edit; shared: number } | undefined;
  for (const kept of scope.trees) {
    if (kept.grammar !== grammar) continue;
    const { edit, shared } = editBetween(kept.source, source);
    if (!best || shared > best.shared) best = { tree: kept.tree, edit, shared };
  }
  if (!best || best.shared * 2 < source.length) return parseFresh(parser, grammar, source);
  const old = best.tree.copy();
  try {
    old.edit(best.edit);
    parsedChars[grammar] += source.length;
    const tree = parser.parse(source, old);
    if (!tree) throw new Error(`tree-sitter-${grammar} returned no tree`);
    // Error recovery may settle differently when parts of the old tree are reused (seen on random
    // edits, rarely); a tree with errors is read too (pytest metrics), so it comes from a fresh parse.
    if (!tree.rootNode.hasError) return tree;
    tree.delete();
    return parseFresh(parser, grammar, source);
  } finally {
    old.delete();
  }
}

/**
 * Parse `source` and hand the tree to `use`. The tree is deleted afterwards (or, inside
 * `withTreeReuse`, when that ends), so `use` must not let nodes escape: WASM memory is not
 * garbage-collected and ingest parses tens of thousands of files.
 */
export async function withTree<T>(grammar: Grammar, source: string, use: (tree: Tree) => T): Promise<T> {
  const parser = await parserFor(grammar);
  const scope = reuseScope.getStore();
  if (!scope || scope.closed) {
    const tree = parseFresh(parser, grammar, source);
    try {
      return use(tree);
    } finally {
      tree.delete();
    }
  }
  // The same text read again (the metrics', the checks' and the summaries' readings of one file at
  // import): its tree as it is. Even an incremental parse without an edit costs milliseconds.
  const same = scope.trees.find((kept) => kept.grammar === grammar && kept.source === source);
  if (same) return use(same.tree);
  const read = scope.scripts.find((kept) => kept.grammar === grammar && kept.source === source && kept.script.root !== null);
  if (read?.tree) return use(read.tree);
  const tree = parseReusing(parser, grammar, source, scope);
  scope.trees.push({ grammar, source, tree });
  return use(tree);
}

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

/** Characters handed to the parser in this thread, by grammar: a parse from a shared start or
 * around a run counts its ranges only (benchmarks: bench/readers.ts). */
export const parsedChars: Record<Grammar, number> = { bash: 0, python: 0 };

let sharedStarts = true;

/** Whether scripts may be parsed from a start they share with an earlier one (on by default;
 * benchmarks and equivalence tests compare with it off). */
export function useSharedStarts(on: boolean): void {
  sharedStarts = on;
}

/** The readers read `text` without a glue up to `upTo` (./shell-glue): its statements before there
 * may start another script's parse. Bash outlines are confirmed so; Python ones are whole. */
export function confirmOutline(grammar: Grammar, text: string, upTo: number): void {
  const outline = reuseScope.getStore()?.outlines.find((o) => o.grammar === grammar && o.text === text);
  if (outline && upTo > outline.confirmedUpTo) outline.confirmedUpTo = upTo;
}

/** `text` read cleanly once a reader had written the characters at `inserted` (offsets in `text`)
 * into the script it was given (./shell-glue): a later script sharing that script's start may take
 * the same characters before its parse (`repairedOutlines`). */
export function noteInserted(grammar: Grammar, text: string, inserted: readonly number[]): void {
  const outline = reuseScope.getStore()?.outlines.find((o) => o.grammar === grammar && o.text === text);
  if (outline) outline.inserted = Int32Array.from(inserted).sort();
}

/** The outlines of the scripts read before this scope (its `earlier`: a parent task's) that have
 * characters noted (`noteInserted`). Not the scope's own: every reader of a text takes the same
 * path to its repaired text, so that each one's memory holds what the next script takes. */
export function repairedOutlines(grammar: Grammar): Outline[] {
  const scope = reuseScope.getStore();
  if (!scope || scope.closed || !sharedStarts) return [];
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
  const scope = reuseScope.getStore();
  if (!scope || scope.closed) return withTree(grammar, source, (tree) => use(wholeScript(source, tree)));
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
  const scope = reuseScope.getStore();
  if (scope && !scope.closed) {
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
