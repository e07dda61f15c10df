// Server only: tree-sitter-bash's side of a solution's reading (./shell). Each top-level statement
// becomes the list of what the Reader does with it (assignments, loop variables, commands that
// can make files, output redirections), its words kept as literal parts and variable references.
// So a statement's events do not depend on the variables or the directory before it, and are
// remembered by its text (lib/metrics/statements): a child's script repeats its parent's
// statements, and only the new ones are walked. The Reader then plays the events in order.
import type { Node } from "web-tree-sitter";
import { earlierGlue, glueIn, redirectGlueIn } from "@/lib/metrics/shell-glue";
import { StatementMemo } from "@/lib/metrics/statements";
import type { ParsedScript } from "@/lib/metrics/script-parse";
import type { Reader, ShellAnalysis, Span, Word } from "./shell";

/** A literal piece of a word, or a variable's name (`$X`, `${X}`). */
type WordPart = string | { variable: string };
/** A word's parts; null when something in it is expanded at run time other than a variable. */
type WordParts = WordPart[] | null;

/** What the Reader does with a statement; rows relative to the statement's first. */
type Event =
  | { kind: "assign"; name: string; value: WordParts }
  | { kind: "loop"; name: string }
  | { kind: "command"; words: WordParts[]; rows: number[]; span: Span; top: boolean }
  | { kind: "redirect"; op: string; target: WordParts; row: number; span: Span; top: boolean };

interface StatementEvents {
  events: Event[];
  /** where the first glue is, relative to the statement's start (lib/metrics/shell-glue) */
  gluedAt: number | null;
}

/** Commands whose words can name a file they make (or remove, or move into), and `cd`. */
const CREATORS = new Set([
  "cd", "touch", "mkfifo", "mkdir", "tee", "install", "cp", "mv", "ln", "rsync", "rm", "rmdir", "unlink", "tar", "zip", "gzip", "bzip2", "xz",
  "unzip", "sqlite3", "git", "ssh-keygen", "dd", "htpasswd", "gcc", "cc", "g++", "c++", "clang", "clang++", "rustc", "go", "sort", "curl",
  "pandoc", "pg_dump", "mysqldump", "jar", "gpg", "openssl", "wget", "sudo", "env", "nohup", "time", "command", "exec",
]);

const OUTPUT_REDIRECTS = new Set([">", ">>", "&>", "&>>", ">|", ">&"]);

const unescape = (text: string): string => text.replace(/\\(.)/gs, "$1");

/** The parts of a sequence of word nodes (a string's or a concatenation's children). */
function partsOf(nodes: readonly Node[], inString: boolean): WordParts {
  const parts: WordPart[] = [];
  for (const child of nodes) {
    if (!child.isNamed) {
      if (inString && child.type === '"') continue;
      return null;
    }
    if (inString && child.type === "string_content") {
      parts.push(child.text.replace(/\\([\\"$`])/g, "$1"));
      continue;
    }
    const inner = wordParts(child);
    if (inner === null) return null;
    parts.push(...inner);
  }
  return parts;
}

function wordParts(node: Node): WordParts {
  switch (node.type) {
    case "word":
    case "number":
      return [unescape(node.text)];
    case "raw_string":
      return [node.text.slice(1, -1)];
    case "simple_expansion": {
      const v = node.namedChildren[0];
      return v?.type === "variable_name" ? [{ variable: v.text }] : null;
    }
    case "expansion": {
      const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(node.text);
      return m?.[1] ? [{ variable: m[1] }] : null;
    }
    case "string":
      return partsOf(node.children, true);
    case "concatenation":
      return partsOf(node.children, false);
    default:
      return null;
  }
}

/** A statement of the script itself, not inside a function, loop, condition or subshell. */
function isTopLevel(node: Node): boolean {
  let p = node.parent;
  while (p) {
    switch (p.type) {
      case "program":
        return true;
      case "redirected_statement":
      case "list":
      case "pipeline":
        p = p.parent;
        continue;
      default:
        return false;
    }
  }
  return false;
}

const READ_TYPES = ["variable_assignment", "for_statement", "command", "file_redirect"];

/** The events of one top-level statement (or of a whole tree with errors), in document order. */
function statementEvents(top: Node, lines: readonly string[]): StatementEvents {
  const baseRow = top.startPosition.row;
  const baseIndex = top.startIndex;
  const spanOf = (node: Node): Span => ({ startRow: node.startPosition.row - baseRow, endRow: node.endPosition.row - baseRow });
  const events: Event[] = [];
  let gluedAt: number | null = null;
  for (const node of top.descendantsOfType(READ_TYPES)) {
    switch (node.type) {
      case "variable_assignment": {
        const name = node.childForFieldName("name")?.text;
        if (!name) break;
        const value = node.childForFieldName("value");
        events.push({ kind: "assign", name, value: value ? wordParts(value) : [""] });
        break;
      }
      case "for_statement": {
        const name = node.childForFieldName("variable")?.text;
        if (name) events.push({ kind: "loop", name });
        break;
      }
      case "command": {
        // glueIn reads only lines the command spans: the events stay a function of the text.
        gluedAt = earlierGlue(gluedAt, glueIn(node, lines), -baseIndex);
        const nameNode = node.childForFieldName("name")?.namedChildren[0] ?? null;
        const rawName = nameNode?.text ?? "";
        // Most commands make nothing: their words are not read at all.
        if (!CREATORS.has(rawName.slice(rawName.lastIndexOf("/") + 1)) && !rawName.startsWith("python") && !rawName.includes("$")) break;
        const argNodes = node.childrenForFieldName("argument");
        const all = nameNode ? [nameNode, ...argNodes] : argNodes;
        events.push({ kind: "command", words: all.map(wordParts), rows: all.map((n) => n.startPosition.row - baseRow), span: spanOf(node), top: isTopLevel(node) });
        break;
      }
      case "file_redirect": {
        gluedAt = earlierGlue(gluedAt, redirectGlueIn(node, lines), -baseIndex);
        let statement = node.parent?.type === "heredoc_redirect" ? node.parent.parent : node.parent;
        if (!statement) break;
        // `a | b | c > f` is one statement: tree-sitter-bash nests the redirect on the whole
        // pipeline or on its tail (`a | (b | c > f)`), which one depending on text far before it.
        while (statement.parent?.type === "pipeline") statement = statement.parent;
        const op = node.children.find((c) => !c.isNamed)?.type ?? "";
        if (!OUTPUT_REDIRECTS.has(op)) break;
        const dest = node.childForFieldName("destination") ?? node.namedChildren[node.namedChildren.length - 1] ?? null;
        if (!dest || (op === ">&" && /^\d+$|^-$/.test(dest.text))) break;
        events.push({ kind: "redirect", op, target: wordParts(dest), row: dest.startPosition.row - baseRow, span: spanOf(statement), top: isTopLevel(statement) });
        break;
      }
    }
  }
  return { events, gluedAt };
}

/** A word's value with the variables as they are now; null when any part is unknown. */
function wordValue(parts: WordParts, reader: Reader): Word {
  if (parts === null) return null;
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") text += part;
    else {
      const value = reader.getVar(part.variable);
      if (value === null) return null;
      text += value;
    }
  }
  return text;
}

/** A span read at row 0 of its statement, moved to the statement's row. */
function shifted(span: Span, baseRow: number): Span {
  return { startRow: span.startRow + baseRow, endRow: span.endRow + baseRow };
}

function play(reader: Reader, events: readonly Event[], baseRow: number): void {
  for (const e of events) {
    switch (e.kind) {
      case "assign":
        reader.setVar(e.name, wordValue(e.value, reader));
        break;
      case "loop":
        reader.setVar(e.name, null);
        break;
      case "command":
        reader.simpleCommand(
          e.words.map((w) => wordValue(w, reader)),
          e.rows.map((row) => row + baseRow),
          shifted(e.span, baseRow),
          e.top,
        );
        break;
      case "redirect":
        reader.redirectTo(e.op, wordValue(e.target, reader), e.row + baseRow, shifted(e.span, baseRow), e.top);
        break;
    }
  }
}

/** Statements read before, in this thread, by text. */
const statementMemo = new StatementMemo<StatementEvents>(4_000_000);

/** Forget the remembered statements (tests measure the uncached path with it). */
export function clearShellTreeMemo(): void {
  statementMemo.clear();
}

/**
 * The Reader's reading of a tree: a tree without errors statement by statement (each statement's
 * events remembered by its text), a tree with errors whole. `gluedAt`: where the first glued line
 * is, for the caller to repair (lib/metrics/shell-glue).
 */
export function readShellTree(script: ParsedScript, reader: Reader, lines: readonly string[]): Pick<ShellAnalysis, "artifacts" | "removed" | "hasError"> & { gluedAt: number | null } {
  const root = script.hasError ? script.root : null;
  const parts = root
    ? [{ reading: statementEvents(root, lines), startIndex: root.startIndex, startRow: root.startPosition.row }]
    : statementMemo.readAll(script.statements.filter((s) => s.isNamed), (node) => statementEvents(node, lines));
  let gluedAt: number | null = null;
  for (const { reading, startIndex, startRow } of parts) {
    play(reader, reading.events, startRow);
    gluedAt = earlierGlue(gluedAt, reading.gluedAt, startIndex);
  }
  return { artifacts: reader.artifacts, removed: reader.removed, hasError: script.hasError || gluedAt !== null, gluedAt: script.hasError ? null : gluedAt };
}
