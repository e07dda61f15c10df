import { createRequire } from "node:module";
import type { ShellFacts } from "./shell-facts";
import type { ShellWord } from "./shell-tools";

/** The slice of mvdan-sh's GopherJS API we use (it ships no types). Node fields are Go struct
 * fields, read through `field` below. */
interface MvNode {
  Pos(): { Line(): number };
}
interface MvSyntax {
  NewParser(...options: unknown[]): { Parse(source: string, name: string): MvNode };
  KeepComments(enabled: boolean): unknown;
  Walk(node: MvNode, visit: (node: MvNode | null) => boolean): void;
  NodeType(node: MvNode): string;
}

let loaded: MvSyntax | undefined;

/** The one cast: the package is untyped JavaScript, checked here for the entry points we call. */
function syntax(): MvSyntax {
  if (loaded) return loaded;
  // Loaded lazily: 1.7 MB of GopherJS that only the rare fallback path needs.
  const module: unknown = createRequire(import.meta.url)("mvdan-sh");
  const candidate = (module as { syntax?: MvSyntax } | null)?.syntax;
  if (typeof candidate?.NewParser !== "function" || typeof candidate.Walk !== "function") {
    throw new Error("mvdan-sh does not expose syntax.NewParser/Walk");
  }
  loaded = candidate;
  return candidate;
}

function field(node: MvNode, name: string): unknown {
  return Reflect.get(node, name);
}

function nodes(node: MvNode, name: string): MvNode[] {
  const value = field(node, name);
  return Array.isArray(value) ? value.filter((item): item is MvNode => item !== null) : [];
}

function text(node: MvNode, name: string): string | null {
  const value = field(node, name);
  return typeof value === "string" ? value : null;
}

const unescape = (value: string): string => value.replace(/\\(.)/gs, "$1");

/** The literal value of a Word, or null when any part expands at run time. */
function literalWord(word: MvNode, mv: MvSyntax): ShellWord {
  let result = "";
  for (const part of nodes(word, "Parts")) {
    const type = mv.NodeType(part);
    let value: string | null = null;
    if (type === "Lit") value = unescape(text(part, "Value") ?? "");
    else if (type === "SglQuoted") value = text(part, "Value");
    else if (type === "DblQuoted") value = literalWord(part, mv);
    if (value === null) return null;
    result += value;
  }
  return result;
}

// tree-sitter gives `[ … ]` and `unset` their own node types, not `command`; skip them here so
// both parsers count the same commands.
const NOT_COMMAND_NODES: ReadonlySet<string> = new Set(["[", "unset", "unsetenv"]);

/** Parse with mvdan-sh (bash dialect); null when it rejects the script. */
export function readWithMvdan(source: string): ShellFacts | null {
  const mv = syntax();
  let file: MvNode;
  try {
    file = mv.NewParser(mv.KeepComments(true)).Parse(source, "solve.sh");
  } catch {
    // A syntax error is an expected outcome here: the caller keeps tree-sitter's reading.
    return null;
  }
  const facts: ShellFacts = { commands: [], functions: [], extraTools: [], commentRows: [] };
  mv.Walk(file, (node) => {
    if (node === null) return true;
    switch (mv.NodeType(node)) {
      case "CallExpr": {
        const words = nodes(node, "Args").map((word) => literalWord(word, mv));
        const name = words[0];
        // Args is empty for a bare assignment (`X=1`), which is not a command.
        if (name !== undefined && !(name !== null && NOT_COMMAND_NODES.has(name))) facts.commands.push(words);
        break;
      }
      case "LetClause":
        facts.commands.push(["let"]);
        break;
      case "TimeClause":
        // tree-sitter reads `time cmd` as a command named time wrapping cmd.
        facts.extraTools.push("time");
        break;
      case "FuncDecl": {
        const name = field(node, "Name");
        const value = name && typeof name === "object" ? Reflect.get(name, "Value") : null;
        if (typeof value === "string") facts.functions.push(value);
        break;
      }
      case "Comment":
        facts.commentRows.push(node.Pos().Line() - 1);
        break;
    }
    return true;
  });
  return facts;
}
