// Server only: the values a pytest file's expressions spell, as lib/checks/pytest.ts reads them:
// strings with their interpolations, module-level constants (`OUT = Path("/app") / "out.txt"`),
// `/` and os.path.join, the paths inside a value, the directories a call lists, and whether a
// string is part of a command a test runs.
import type { Node } from "web-tree-sitter";
import { absolutePathIn } from "@/lib/metrics/python-paths";

// Absolute paths inside a longer string: a shell command, a message, a glob.
const EMBEDDED_PATH = /(?:^|[\s'"=:(,[])(\/[A-Za-z0-9._+-][^\s'"`;|&<>(),*?[\]{}$]*)/g;
export const LISTING_CALL = /(?:^|\.)(?:glob|rglob|iterdir|listdir|scandir|walk|iglob)$/;
const LISTING_TOOL = /^(?:ls|find|du|tree|diff)$/;

/** Module-level constants by name, as a statement's reading may ask for them. */
export interface Env {
  get(name: string): string | undefined;
}

/** The constants as they stand, remembering what a reading asked: a statement's reading depends on
 * its text and on the values of the constants it names (or found missing), nothing else. */
export class AskedEnv implements Env {
  readonly asked: [string, string | undefined][] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly env: ReadonlyMap<string, string>) {}
  get(name: string): string | undefined {
    const value = this.env.get(name);
    if (!this.seen.has(name)) {
      this.seen.add(name);
      this.asked.push([name, value]);
    }
    return value;
  }
}

/** The text a string node spells, interpolations resolved from `env` when they name a constant;
 * `cut` when an interpolation could not be resolved (the text stops there). */
export function stringValue(node: Node, env: Env): { text: string; cut: boolean } {
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
export function evalExpr(node: Node, env: Env): string | null {
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
export function pathsOfValue(value: string): { path: string; whole: boolean }[] {
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
export function listedBy(call: Node, fn: Node | null, fnText: string, env: Env): string[] {
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

export const RUNS_COMMAND = /(?:^|\.)(?:run|call|check_call|check_output|Popen|system|popen|getoutput|getstatusoutput)$/;

/** Whether a string is (part of) the command of a subprocess call. */
export function inCommand(node: Node): boolean {
  let p: Node | null = node.parent;
  for (let depth = 0; p && depth < 4; depth++, p = p.parent) {
    if (p.type === "call") return RUNS_COMMAND.test(p.childForFieldName("function")?.text ?? "");
    if (p.type !== "list" && p.type !== "tuple" && p.type !== "argument_list" && p.type !== "concatenated_string") return false;
  }
  return false;
}

export const PATH_CALLS = new Set(["Path", "PosixPath", "PurePath", "PurePosixPath", "str", "fspath", "abspath", "normpath", "realpath", "resolve", "join"]);

/** `NAME = <expression>` at module level, when the expression's value is known. */
export function constantOf(statement: Node, env: Env): { name: string; value: string } | null {
  if (statement.type !== "expression_statement") return null;
  const assign = statement.namedChildren[0];
  if (assign?.type !== "assignment") return null;
  const left = assign.childForFieldName("left");
  const right = assign.childForFieldName("right");
  if (left?.type !== "identifier" || !right) return null;
  const value = evalExpr(right, env);
  return value === null ? null : { name: left.text, value };
}
