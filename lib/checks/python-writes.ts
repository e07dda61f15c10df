// Server only: the files a Python program in a solution writes (`python3 - <<'PY'`, or a script
// the solution writes and runs), read with tree-sitter-python: `open(…, "w"/"a"/"x")`, pathlib's
// write_text/write_bytes/touch/open("w"), shutil's copy and move targets, os.rename/replace,
// sqlite3.connect, tarfile and zipfile archives opened to write. A path is a literal, a name
// assigned a known value earlier in the program, or `/`, os.path.join, Path() and f-strings of
// those; anything else (a loop variable, an argument, `$VAR` left for the shell) is left out —
// never guessed, as in the shell reading.
import type { Node } from "web-tree-sitter";
import { withTree } from "@/lib/metrics/tree-sitter";
import { evalExpr, type Env } from "./pytest-values";

export interface PythonWrite {
  path: string;
  /** the call that writes it: `open`, `write_text`, `shutil.copy`, … */
  via: string;
  /** 0-based row of the path's expression, and the call's rows, in the program's text */
  row: number;
  startRow: number;
  endRow: number;
}

const WRITE_MODE = /[wax+]/;
const COPY_TARGET = /^(?:shutil\.)?(?:copy|copy2|copyfile|copytree|move)$|^os\.(?:rename|replace|link|symlink)$/;

function positional(call: Node): Node[] {
  return (call.childForFieldName("arguments")?.namedChildren ?? []).filter((a) => a.type !== "keyword_argument" && a.type !== "comment");
}

function keyword(call: Node, name: string): Node | null {
  for (const a of call.childForFieldName("arguments")?.namedChildren ?? []) {
    if (a.type === "keyword_argument" && a.childForFieldName("name")?.text === name) return a.childForFieldName("value");
  }
  return null;
}

/** The mode a call opens with (`open(p, "w")`, `open(p, mode="a")`, `p.open("w")`), "r" when unsaid. */
function modeOf(call: Node, at: number, env: Env): string | null {
  const node = positional(call)[at] ?? keyword(call, "mode");
  return node ? evalExpr(node, env) : "r";
}

/** The path a call writes, with the name it is written through, or null. */
function writtenBy(call: Node, env: Env): { node: Node; via: string } | null {
  const fn = call.childForFieldName("function");
  if (!fn) return null;
  const name = fn.text;
  const args = positional(call);
  if (/^(?:open|io\.open|codecs\.open|gzip\.open|bz2\.open|lzma\.open|tarfile\.open|zipfile\.ZipFile)$/.test(name)) {
    const mode = modeOf(call, 1, env);
    return args[0] && mode !== null && WRITE_MODE.test(mode) ? { node: args[0], via: name } : null;
  }
  if (COPY_TARGET.test(name)) return args[1] ? { node: args[1], via: name } : null;
  if (name === "sqlite3.connect") return args[0] ? { node: args[0], via: name } : null;
  if (fn.type === "attribute") {
    const method = fn.childForFieldName("attribute")?.text ?? "";
    const object = fn.childForFieldName("object");
    if (!object) return null;
    if (method === "write_text" || method === "write_bytes" || method === "touch") return { node: object, via: method };
    if (method === "open") {
      const mode = modeOf(call, 0, env);
      return mode !== null && WRITE_MODE.test(mode) ? { node: object, via: "open" } : null;
    }
  }
  return null;
}

/** The files `program` writes, or null when tree-sitter-python cannot read it cleanly. */
export async function pythonWrites(program: string): Promise<PythonWrite[] | null> {
  return withTree("python", program, (tree) => {
    if (tree.rootNode.hasError) return null;
    const known = new Map<string, string>();
    const env: Env = { get: (n) => known.get(n) };
    const out: PythonWrite[] = [];
    // Document order: a name means what it was last assigned before the call.
    const visit = (node: Node): void => {
      if (node.type === "assignment") {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        if (right) visit(right);
        if (left?.type === "identifier") {
          const value = right ? evalExpr(right, env) : null;
          if (value === null) known.delete(left.text);
          else known.set(left.text, value);
        }
        return;
      }
      if (node.type === "for_statement") {
        // A loop's variable holds no one value.
        const left = node.childForFieldName("left");
        for (const id of left?.type === "identifier" ? [left] : (left?.namedChildren ?? [])) known.delete(id.text);
      }
      if (node.type === "call") {
        const w = writtenBy(node, env);
        const path = w ? evalExpr(w.node, env) : null;
        if (w && path !== null && path.startsWith("/") && !path.includes("$")) {
          out.push({ path, via: w.via, row: w.node.startPosition.row, startRow: node.startPosition.row, endRow: node.endPosition.row });
        }
      }
      for (const child of node.namedChildren) visit(child);
    };
    visit(tree.rootNode);
    return out;
  });
}
