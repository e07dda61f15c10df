// Server only: what a pytest file of a verifier checks, read with tree-sitter-python. Its tests
// (pytest's default collection), their assertions, and the absolute paths each test reads:
// literals in its body, module-level constants it names (`OUT = Path("/app") / "out.txt"`), the
// helpers and fixtures it calls, and paths inside shell commands it runs (`"cat /app/x"`).
import type { Node, Tree } from "web-tree-sitter";
import { absolutePathIn } from "@/lib/metrics/python-paths";
import { normalizeSource } from "@/lib/metrics/source";
import { withTree } from "@/lib/metrics/tree-sitter";
import { Lru } from "@/lib/rounds/lru";

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

// Absolute paths inside a longer string: a shell command, a message, a glob.
const EMBEDDED_PATH = /(?:^|[\s'"=:(,[])(\/[A-Za-z0-9._+-][^\s'"`;|&<>(),*?[\]{}$]*)/g;
const LISTING_CALL = /(?:^|\.)(?:glob|rglob|iterdir|listdir|scandir|walk|iglob)$/;
const LISTING_TOOL = /^(?:ls|find|du|tree|diff)$/;

interface Scope {
  end: number;
  kind: "test" | "class" | "other";
  name: string;
  /** module-level function (helper or fixture): its paths count for the tests that call it */
  helper: boolean;
  startRow: number;
  asserts: number;
  paths: PathRef[];
  listed: string[];
  text: string;
}

function collectable(definition: Node, innermost: Scope | undefined, innermostId: number | undefined): boolean {
  let parent = definition.parent;
  if (parent?.type === "decorated_definition") parent = parent.parent;
  if (!parent) return false;
  if (innermost === undefined) return parent.type === "module";
  return innermost.kind === "class" && parent.type === "block" && parent.parent?.id === innermostId;
}

type Env = Map<string, string>;

/** The text a string node spells, interpolations resolved from `env` when they name a constant;
 * `cut` when an interpolation could not be resolved (the text stops there). */
function stringValue(node: Node, env: Env): { text: string; cut: boolean } {
  if (node.type === "concatenated_string") {
    let text = "";
    for (const part of node.namedChildren) {
      const v = stringValue(part, env);
      text += v.text;
      if (v.cut) return { text, cut: true };
    }
    return { text, cut: false };
  }
  const start = node.children[0];
  const raw = start?.type === "string_start" && start.text.toLowerCase().includes("r");
  let text = "";
  for (const child of node.namedChildren) {
    if (child.type === "interpolation") {
      const expr = child.namedChildren[0];
      const v = expr ? evalExpr(expr, env) : null;
      if (v === null) return { text, cut: true };
      text += v;
    } else if (child.type === "string_content") {
      text += raw ? child.text : child.text.replace(/\\([\\'"])/g, "$1");
    }
  }
  return { text, cut: false };
}

const joinPath = (a: string, b: string): string => (b.startsWith("/") ? b : a.endsWith("/") ? a + b : `${a}/${b}`);

/** The string or path value of a small expression: literals, constants, `/`, os.path.join,
 * Path(), str(); null when it depends on anything else. */
function evalExpr(node: Node, env: Env): string | null {
  switch (node.type) {
    case "string":
    case "concatenated_string": {
      const v = stringValue(node, env);
      return v.cut ? null : v.text;
    }
    case "identifier":
      return env.get(node.text) ?? null;
    case "parenthesized_expression": {
      const inner = node.namedChildren[0];
      return inner ? evalExpr(inner, env) : null;
    }
    case "binary_operator": {
      const op = node.childForFieldName("operator")?.text;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      if (!left || !right || (op !== "/" && op !== "+")) return null;
      const l = evalExpr(left, env);
      const r = evalExpr(right, env);
      if (l === null || r === null) return null;
      return op === "/" ? joinPath(l, r) : l + r;
    }
    case "call": {
      const fn = node.childForFieldName("function")?.text ?? "";
      const args = (node.childForFieldName("arguments")?.namedChildren ?? []).filter((a) => a.type !== "keyword_argument" && a.type !== "comment");
      const name = fn.split(".").pop() ?? "";
      if (["Path", "PosixPath", "PurePath", "PurePosixPath", "str", "fspath", "abspath", "normpath", "realpath", "resolve"].includes(name) && args.length === 1) {
        const a = args[0];
        return a ? evalExpr(a, env) : null;
      }
      if ((fn === "os.path.join" || fn === "path.join" || fn === "join") && args.length > 0) {
        let out = "";
        for (const a of args) {
          const v = evalExpr(a, env);
          if (v === null) return null;
          out = out === "" ? v : joinPath(out, v);
        }
        return out;
      }
      return null;
    }
    default:
      return null;
  }
}

/** Absolute paths a value spells: the whole value when it is one, else the paths inside it. */
function pathsOfValue(value: string): { path: string; whole: boolean }[] {
  const whole = absolutePathIn(value);
  if (whole !== null && !/\s/.test(value)) return [{ path: whole, whole: true }];
  const out: { path: string; whole: boolean }[] = [];
  for (const m of value.matchAll(EMBEDDED_PATH)) {
    const p = m[1];
    if (p && /[A-Za-z0-9]/.test(p) && p.length > 1) out.push({ path: p.replace(/[.:]+$/, ""), whole: false });
  }
  return out;
}

/** Directories a call lists: `p.iterdir()`, `os.listdir(p)`, `glob.glob("/d/*.csv")`,
 * `subprocess.run(["ls", p])`, `subprocess.run("find /d -name x", shell=True)`. */
function listedBy(call: Node, fn: Node | null, fnText: string, env: Env): string[] {
  const args = (call.childForFieldName("arguments")?.namedChildren ?? []).filter((a) => a.type !== "keyword_argument" && a.type !== "comment");
  const dirOf = (v: string | null) => {
    if (v === null) return [];
    const cut = v.search(/[*?[{]/);
    const p = absolutePathIn(cut === -1 ? v : v.slice(0, cut));
    return p === null ? [] : [p.replace(/\/+$/, "") || "/"];
  };
  if (LISTING_CALL.test(fnText)) {
    if (fn?.type === "attribute" && /(?:^|\.)(?:iterdir|glob|rglob)$/.test(fnText) && !/^(?:glob|os)\./.test(fnText)) {
      const receiver = fn.childForFieldName("object");
      return receiver ? dirOf(evalExpr(receiver, env)) : [];
    }
    const first = args[0];
    return first ? dirOf(evalExpr(first, env)) : [];
  }
  if (!RUNS_COMMAND.test(fnText)) return [];
  const first = args[0];
  if (!first) return [];
  let words: (string | null)[];
  if (first.type === "list" || first.type === "tuple") words = first.namedChildren.map((w) => evalExpr(w, env));
  else words = (evalExpr(first, env) ?? "").split(/\s+/);
  if (!LISTING_TOOL.test((words[0] ?? "").split("/").pop() ?? "")) return [];
  return words.slice(1).flatMap((w) => (w !== null && w.startsWith("/") ? dirOf(w) : []));
}

const RUNS_COMMAND = /(?:^|\.)(?:run|call|check_call|check_output|Popen|system|popen|getoutput|getstatusoutput)$/;

/** Whether a string is (part of) the command of a subprocess call. */
function inCommand(node: Node): boolean {
  let p: Node | null = node.parent;
  for (let depth = 0; p && depth < 4; depth++, p = p.parent) {
    if (p.type === "call") return RUNS_COMMAND.test(p.childForFieldName("function")?.text ?? "");
    if (p.type !== "list" && p.type !== "tuple" && p.type !== "argument_list" && p.type !== "concatenated_string") return false;
  }
  return false;
}

const PATH_CALLS = new Set(["Path", "PosixPath", "PurePath", "PurePosixPath", "str", "fspath", "abspath", "normpath", "realpath", "resolve", "join"]);
const PATH_NODES = ["string", "concatenated_string", "binary_operator", "call"];
const READ_TYPES = ["function_definition", "class_definition", "assert_statement", ...PATH_NODES];

function readTree(tree: Tree, lines: readonly string[]): PytestAnalysis {
  const root = tree.rootNode;
  const excerpt = (row: number) => (lines[row] ?? "").trim().slice(0, 200);
  // Module-level constants, in order: NAME = <path expression>.
  const env: Env = new Map();
  for (const stmt of root.namedChildren) {
    if (stmt.type !== "expression_statement") continue;
    const assign = stmt.namedChildren[0];
    if (assign?.type !== "assignment") continue;
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    if (left?.type !== "identifier" || !right) continue;
    const v = evalExpr(right, env);
    if (v !== null) env.set(left.text, v);
  }
  const tests: Scope[] = [];
  const helpers = new Map<string, Scope>();
  const scopes: Scope[] = [];
  const scopeIds: number[] = [];
  const all: PathRef[] = [];
  const constantRefs = new Map<string, PathRef[]>();
  for (const [name, value] of env) {
    const refs = pathsOfValue(value).map(({ path: p, whole }): PathRef => ({ path: p, kind: whole ? "literal" : "text", line: 0, excerpt: "" }));
    if (refs.length > 0) constantRefs.set(name, refs);
  }
  for (const node of root.descendantsOfType(READ_TYPES)) {
    while (scopes.length > 0 && (scopes[scopes.length - 1]?.end ?? 0) <= node.startIndex) {
      scopes.pop();
      scopeIds.pop();
    }
    const innermost = scopes[scopes.length - 1];
    const type = node.type;
    if (type === "function_definition" || type === "class_definition") {
      const name = node.childForFieldName("name")?.text ?? "";
      const scope: Scope = { end: node.endIndex, kind: "other", name, helper: false, startRow: node.startPosition.row, asserts: 0, paths: [], listed: [], text: "" };
      const prefix = type === "function_definition" ? "test" : "Test";
      const top = collectable(node, innermost, scopeIds[scopeIds.length - 1]);
      if (name.startsWith(prefix) && top) {
        scope.kind = type === "function_definition" ? "test" : "class";
        scope.name = innermost ? `${innermost.name}::${name}` : name;
      }
      if (scope.kind === "test") {
        scope.text = node.text;
        tests.push(scope);
      } else if (type === "function_definition" && innermost === undefined) {
        scope.helper = true;
        scope.text = node.text;
        helpers.set(name, scope);
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
    const row = node.startPosition.row;
    const found = pathsOfValue(value);
    if (found.length === 0) continue;
    const command = found.some((f) => !f.whole) && inCommand(node);
    for (const { path: p, whole } of found) {
      const ref: PathRef = { path: p, kind: whole ? "literal" : command ? "command" : "text", line: row + 1, excerpt: excerpt(row) };
      all.push(ref);
      owner?.paths.push(ref);
    }
  }
  // What a test (or helper) names: constants, helpers and fixtures, by word.
  const names = [...constantRefs.keys(), ...helpers.keys()];
  const wordRe = names.length > 0 ? new RegExp(`\\b(${names.map((n) => n.replace(/[^\w]/g, "")).join("|")})\\b`, "g") : null;
  const uses = (scope: Scope): Set<string> => {
    const out = new Set<string>();
    if (!wordRe) return out;
    for (const m of scope.text.matchAll(wordRe)) if (m[1] && m[1] !== scope.name) out.add(m[1]);
    return out;
  };
  const lineOf = (scope: Scope, name: string): number => {
    const at = scope.text.search(new RegExp(`\\b${name}\\b`));
    return scope.startRow + (at < 0 ? 0 : scope.text.slice(0, at).split("\n").length - 1);
  };
  const closure = (scope: Scope): { paths: PathRef[]; listed: string[] } => {
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
        for (const ref of constantRefs.get(name) ?? []) paths.push({ ...ref, line: row + 1, excerpt: excerpt(row) });
        const helper = helpers.get(name);
        if (helper) {
          for (const ref of helper.paths) paths.push(ref);
          listed.push(...helper.listed);
          queue.push(helper);
        }
      }
    }
    return { paths, listed };
  };
  const out: PyTestCase[] = tests.map((t) => {
    const { paths, listed } = closure(t);
    return { name: t.name, line: t.startRow + 1, asserts: t.asserts, paths, listed };
  });
  // Module-level constants count as spelt where they are assigned.
  return { tests: out, asserts: out.reduce((n, t) => n + t.asserts, 0), paths: all };
}

const cache = new Lru<string, PytestAnalysis>(4096);

/** Reads one pytest file; `key` (the blob hash) caches the reading. */
export async function analysePytest(source: string, key?: string): Promise<PytestAnalysis> {
  const hit = key ? cache.get(key) : undefined;
  if (hit) return hit;
  const text = normalizeSource(source);
  const lines = text.split("\n");
  const result = await withTree("python", text, (tree) => readTree(tree, lines));
  if (key) cache.set(key, result);
  return result;
}
