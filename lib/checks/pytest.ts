// Server only: what a pytest file of a verifier checks, read with tree-sitter-python. Its tests
// (pytest's default collection), their assertions, and the absolute paths each test reads:
// literals in its body, module-level constants it names (`OUT = Path("/app") / "out.txt"`), the
// helpers and fixtures it calls, and paths inside shell commands it runs (`"cat /app/x"`).
import type { Node } from "web-tree-sitter";
import { normalizeSource } from "@/lib/metrics/source";
import { StatementMemo } from "@/lib/metrics/statements";
import { withStatements, type ParsedScript, type TopLevel } from "@/lib/metrics/script-parse";
import { Lru } from "@/lib/rounds/lru";
import { AskedEnv, constantOf, evalExpr, inCommand, listedBy, LISTING_CALL, PATH_CALLS, pathsOfValue, RUNS_COMMAND, stringValue, type Env } from "./pytest-values";

export interface PathRef {
  path: string;
  /** how the file spells it: a whole literal (a path it opens), inside a command it runs, or
   * inside other text (expected content, a message) */
  kind: "literal" | "command" | "text";
  /** 1-based line in the file */
  line: number;
  /** the text of that line, trimmed (for evidence) */
  excerpt: string;
}

export interface PyTestCase {
  /** pytest id within the file: `test_a`, `TestThing::test_b` */
  name: string;
  /** 1-based line of the `def` */
  line: number;
  asserts: number;
  /** the paths it reads, its own and those of the constants, helpers and fixtures it uses */
  paths: PathRef[];
  /** directories it lists (iterdir, glob, listdir, walk, `ls`, `find`, `git -C`): files under them count as looked at */
  listed: string[];
}

export interface PytestAnalysis {
  tests: PyTestCase[];
  asserts: number;
  /** every absolute path the file spells, anywhere (helpers and constants included) */
  paths: PathRef[];
}

/** An open function or class definition while a statement's nodes are read in document order. */
interface Scope {
  end: number;
  kind: "test" | "class" | "other";
  name: string;
  /** module-level function (helper or fixture): its paths count for the tests that call it */
  helper: boolean;
  /** row of the `def`, relative to the statement's first row */
  row: number;
  asserts: number;
  paths: StatementRef[];
  listed: string[];
  /** where its text lies, relative to the statement's start */
  start: number;
  stop: number;
}

/** A path as one statement's reading keeps it: its row relative to the statement's first row. */
interface StatementRef {
  path: string;
  kind: PathRef["kind"];
  row: number;
}

/** What one top-level statement (or a whole tree with errors) holds, positions relative to its
 * start: its tests and helpers in order and every path it spells. */
interface StatementWalk {
  tests: Scope[];
  helpers: Scope[];
  all: StatementRef[];
}

function collectable(definition: Node, innermost: Scope | undefined, innermostId: number | undefined): boolean {
  let parent = definition.parent;
  if (parent?.type === "decorated_definition") parent = parent.parent;
  if (!parent) return false;
  if (innermost === undefined) return parent.type === "module";
  return innermost.kind === "class" && parent.type === "block" && parent.parent?.id === innermostId;
}

const PATH_NODES = ["string", "concatenated_string", "binary_operator", "call"];
const READ_TYPES = ["function_definition", "class_definition", "assert_statement", ...PATH_NODES];

/** The tests, helpers and paths of one top-level statement (or of a whole tree with errors), read
 * with the module's constants `env`. */
function walkStatement(top: Node, env: Env): StatementWalk {
  const base = top.startIndex;
  const baseRow = top.startPosition.row;
  const tests: Scope[] = [];
  const helpers: Scope[] = [];
  const all: StatementRef[] = [];
  const scopes: Scope[] = [];
  const scopeIds: number[] = [];
  for (const node of top.descendantsOfType(READ_TYPES)) {
    while (scopes.length > 0 && (scopes[scopes.length - 1]?.end ?? 0) <= node.startIndex) {
      scopes.pop();
      scopeIds.pop();
    }
    const innermost = scopes[scopes.length - 1];
    const type = node.type;
    if (type === "function_definition" || type === "class_definition") {
      const name = node.childForFieldName("name")?.text ?? "";
      const scope: Scope = {
        end: node.endIndex,
        kind: "other",
        name,
        helper: false,
        row: node.startPosition.row - baseRow,
        asserts: 0,
        paths: [],
        listed: [],
        start: node.startIndex - base,
        stop: node.endIndex - base,
      };
      const prefix = type === "function_definition" ? "test" : "Test";
      const collected = collectable(node, innermost, scopeIds[scopeIds.length - 1]);
      if (name.startsWith(prefix) && collected) {
        scope.kind = type === "function_definition" ? "test" : "class";
        scope.name = innermost ? `${innermost.name}::${name}` : name;
      }
      if (scope.kind === "test") tests.push(scope);
      else if (type === "function_definition" && innermost === undefined) {
        scope.helper = true;
        helpers.push(scope);
      }
      scopes.push(scope);
      scopeIds.push(node.id);
      continue;
    }
    const owner = [...scopes].reverse().find((s) => s.kind === "test" || s.helper);
    if (type === "assert_statement") {
      if (innermost?.kind === "test") innermost.asserts += 1;
      continue;
    }
    if (type === "call") {
      const fn = node.childForFieldName("function");
      const fnText = fn?.text ?? "";
      const name = fnText.slice(fnText.lastIndexOf(".") + 1);
      // unittest-style assertions count as assertions.
      if (/^assert[A-Z]/.test(name) && fn?.type === "attribute" && innermost?.kind === "test") innermost.asserts += 1;
      if (LISTING_CALL.test(fnText) || RUNS_COMMAND.test(fnText)) {
        const listed = listedBy(node, fn, fnText, env);
        if (listed.length > 0) owner?.listed.push(...listed);
      }
      // Only calls that build a path are read as a whole; other calls' arguments are read on their own.
      if (!PATH_CALLS.has(name)) continue;
    } else if (type === "binary_operator") {
      const text = node.text;
      if (!text.includes('"') && !text.includes("'") && !/\b[A-Z_][A-Z0-9_]*\b/.test(text)) continue;
    } else {
      if (!node.text.includes("/")) continue;
      if (type === "string" && node.parent?.type === "concatenated_string") continue;
    }
    const value = evalExpr(node, env) ?? (type === "string" || type === "concatenated_string" ? stringValue(node, env).text : null);
    if (value === null) continue;
    const found = pathsOfValue(value);
    if (found.length === 0) continue;
    const row = node.startPosition.row - baseRow;
    const command = found.some((f) => !f.whole) && inCommand(node);
    for (const { path: p, whole } of found) {
      const ref: StatementRef = { path: p, kind: whole ? "literal" : command ? "command" : "text", row };
      all.push(ref);
      owner?.paths.push(ref);
    }
  }
  return { tests, helpers, all };
}

/** A statement's reading and the constants it asked for, to be asked again before it is reused. */
interface Asked<R> {
  reading: R;
  asked: [string, string | undefined][];
}

/**
 * Readings of top-level statements remembered by their text (lib/metrics/statements), each valid
 * while the constants it asked for have the values it saw: a child's test file repeats its
 * parent's statements, and is parsed only from where it stops repeating them
 * (lib/metrics/outlines).
 */
class ConstantAwareMemo<R> {
  private readonly memo: StatementMemo<Asked<R>>;
  constructor(capacity: number) {
    this.memo = new StatementMemo(capacity);
  }

  read(statement: TopLevel, env: ReadonlyMap<string, string>, read: (node: Node, env: Env) => R): R {
    return this.memo.read(
      statement,
      (node) => {
        const asking = new AskedEnv(env);
        const reading = read(node, asking);
        return { reading, asked: asking.asked };
      },
      (known) => known.asked.every(([name, value]) => env.get(name) === value),
    ).reading;
  }

  clear(): void {
    this.memo.clear();
  }
}

const constantReadings = new ConstantAwareMemo<{ name: string; value: string } | null>(1_000_000);
const statementWalks = new ConstantAwareMemo<StatementWalk>(4_000_000);

/** Forget the remembered statements and files (tests and benchmarks). */
export function clearPytestReadings(): void {
  constantReadings.clear();
  statementWalks.clear();
  cache.clear();
}

/** A script's constants in order, then each top-level statement's walk (a tree with errors: the
 * whole tree at once, nothing remembered, since error recovery depends on context). */
function readScript(script: ParsedScript, text: string): PytestAnalysis {
  const env = new Map<string, string>();
  const parts: { walk: StatementWalk; startIndex: number; startRow: number }[] = [];
  if (script.root && script.hasError) {
    for (const statement of script.root.namedChildren) {
      const c = constantOf(statement, env);
      if (c) env.set(c.name, c.value);
    }
    parts.push({ walk: walkStatement(script.root, env), startIndex: script.root.startIndex, startRow: script.root.startPosition.row });
  } else {
    const named = script.statements.filter((s) => s.isNamed);
    for (const statement of named) {
      if (statement.type !== "expression_statement") continue;
      const c = constantReadings.read(statement, env, constantOf);
      if (c) env.set(c.name, c.value);
    }
    for (const statement of named) parts.push({ walk: statementWalks.read(statement, env, walkStatement), startIndex: statement.startIndex, startRow: statement.startRow });
  }
  return assemble(parts, env, text);
}

/** A test or helper with its place in the file. */
interface Placed {
  name: string;
  startRow: number;
  asserts: number;
  paths: PathRef[];
  listed: string[];
  text: string;
}

/** The file's reading from its statements' walks: each test's paths with those of the constants,
 * helpers and fixtures it names, by word. */
function assemble(parts: readonly { walk: StatementWalk; startIndex: number; startRow: number }[], env: ReadonlyMap<string, string>, text: string): PytestAnalysis {
  const lines = text.split("\n");
  const excerpt = (row: number) => (lines[row] ?? "").trim().slice(0, 200);
  const tests: Placed[] = [];
  const helpers = new Map<string, Placed>();
  const all: PathRef[] = [];
  // Made once, not for each statement (tsx names every closure it makes: lib/checks/shell-command.ts).
  const ref = (r: StatementRef, startRow: number): PathRef => ({ path: r.path, kind: r.kind, line: startRow + r.row + 1, excerpt: excerpt(startRow + r.row) });
  const place = (s: Scope, startIndex: number, startRow: number): Placed => ({
    name: s.name,
    startRow: startRow + s.row,
    asserts: s.asserts,
    paths: s.paths.map((r) => ref(r, startRow)),
    listed: [...s.listed],
    text: text.slice(startIndex + s.start, startIndex + s.stop),
  });
  for (const { walk, startIndex, startRow } of parts) {
    for (const t of walk.tests) tests.push(place(t, startIndex, startRow));
    for (const h of walk.helpers) helpers.set(h.name, place(h, startIndex, startRow));
    for (const r of walk.all) all.push(ref(r, startRow));
  }
  const constantRefs = new Map<string, PathRef[]>();
  for (const [name, value] of env) {
    const refs = pathsOfValue(value).map(({ path: p, whole }): PathRef => ({ path: p, kind: whole ? "literal" : "text", line: 0, excerpt: "" }));
    if (refs.length > 0) constantRefs.set(name, refs);
  }
  const names = [...constantRefs.keys(), ...helpers.keys()];
  const wordRe = names.length > 0 ? new RegExp(`\\b(${names.map((n) => n.replace(/[^\w]/g, "")).join("|")})\\b`, "g") : null;
  const uses = (scope: Placed): Set<string> => {
    const out = new Set<string>();
    if (!wordRe) return out;
    for (const m of scope.text.matchAll(wordRe)) if (m[1] && m[1] !== scope.name) out.add(m[1]);
    return out;
  };
  const lineOf = (scope: Placed, name: string): number => {
    const at = scope.text.search(new RegExp(`\\b${name}\\b`));
    return scope.startRow + (at < 0 ? 0 : scope.text.slice(0, at).split("\n").length - 1);
  };
  const closure = (scope: Placed): { paths: PathRef[]; listed: string[] } => {
    const seen = new Set<string>();
    const paths = [...scope.paths];
    const listed = [...scope.listed];
    const queue = [scope];
    while (queue.length > 0) {
      const s = queue.pop();
      if (!s) break;
      for (const name of uses(s)) {
        if (seen.has(name)) continue;
        seen.add(name);
        const row = lineOf(scope, name);
        for (const r of constantRefs.get(name) ?? []) paths.push({ ...r, line: row + 1, excerpt: excerpt(row) });
        const helper = helpers.get(name);
        if (helper) {
          for (const r of helper.paths) paths.push(r);
          listed.push(...helper.listed);
          queue.push(helper);
        }
      }
    }
    return { paths, listed };
  };
  const out: PyTestCase[] = tests.map((t) => {
    const { paths, listed } = closure(t);
    return { name: t.name, line: t.startRow + 1, asserts: t.asserts, paths: distinctRefs(paths), listed: [...new Set(listed)] };
  });
  return { tests: out, asserts: out.reduce((n, t) => n + t.asserts, 0), paths: distinctRefs(all) };
}

/**
 * Each path once per line and kind, first mention first: `Path("/app/x")` names its path twice,
 * as the call and as its string. The excerpt follows from the line.
 */
function distinctRefs(refs: readonly PathRef[]): PathRef[] {
  const seen = new Set<string>();
  const out: PathRef[] = [];
  for (const r of refs) {
    const key = `${r.line}\u0000${r.kind}\u0000${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

const cache = new Lru<string, PytestAnalysis>(4096);

/** Reads one pytest file; `key` (the blob hash) caches the reading. */
export async function analysePytest(source: string, key?: string): Promise<PytestAnalysis> {
  const hit = key ? cache.get(key) : undefined;
  if (hit) return hit;
  const text = normalizeSource(source);
  const result = await withStatements("python", text, (script) => readScript(script, text));
  if (key) cache.set(key, result);
  return result;
}
