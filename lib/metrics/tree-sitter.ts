import { createRequire } from "node:module";
import path from "node:path";
import { Language, Parser, type Tree } from "web-tree-sitter";

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

/**
 * Parse `source` and hand the tree to `use`. The tree is deleted afterwards, so `use` must not
 * let nodes escape: WASM memory is not garbage-collected and ingest parses tens of thousands of files.
 */
export async function withTree<T>(grammar: Grammar, source: string, use: (tree: Tree) => T): Promise<T> {
  const parser = await parserFor(grammar);
  const tree = parser.parse(source);
  if (!tree) throw new Error(`tree-sitter-${grammar} returned no tree`);
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
