import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import path from "node:path";
import { Edit, Language, Parser, type Point, type Tree } from "web-tree-sitter";
import type { Outline } from "./outlines";
import type { ParsedScript } from "./script-parse";

export type Grammar = "bash" | "python";

/** Characters handed to the parser in this thread, by grammar: a parse from a shared start or
 * around a run counts its ranges only (benchmarks: bench/readers.ts). */
export const parsedChars: Record<Grammar, number> = { bash: 0, python: 0 };

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
export function parserFor(grammar: Grammar): Promise<Parser> {
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
export interface ReuseScope {
  trees: { grammar: Grammar; source: string; tree: Tree }[];
  /** scripts read from a shared start (./script-parse), by grammar and source */
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

/** The reuse scope of the call this runs in, or null outside one or once it has settled. */
export function activeScope(): ReuseScope | null {
  const scope = reuseScope.getStore();
  return scope && !scope.closed ? scope : null;
}

/**
 * Run `fn` with parse reuse: inside it, a parse starts from the tree of the most similar source of
 * the same grammar parsed before in the same call (tree-sitter's incremental parsing, which gives
 * the tree a fresh parse would; a tree with a syntax error is parsed afresh), when the two share at
 * least half of the new source at their start and end — a child task's script mostly repeats its
 * parent's; the same source again reads the same tree. The trees are deleted when `fn` settles.
 * Statement readers (./script-parse) may also parse a script from the start it shares with one of
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
export function pointAt(text: string, index: number): Point {
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

export function parseFresh(parser: Parser, grammar: Grammar, source: string): Tree {
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
  const scope = activeScope();
  if (!scope) {
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
