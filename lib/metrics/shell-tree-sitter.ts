import type { Node } from "web-tree-sitter";
import type { HeredocStart } from "./heredoc-risk";
import { earlierGlue, glueIn, NEWLINE_IN_WORD, redirectGlueIn } from "./shell-glue";
import type { ShellFacts } from "./shell-facts";
import type { ShellWord } from "./shell-tools";
import { StatementMemo } from "./statements";
import type { ParsedScript } from "./script-parse";

export interface BashTreeReading {
  facts: ShellFacts;
  hasError: boolean;
  /** a word spans a line break: tree-sitter glued a line starting with `\` (`\cp -f a b`)
   * onto the previous command, without an error node */
  gluedLines: boolean;
  /** where tree-sitter glued a line onto a command (./shell-glue), in a tree without errors */
  gluedAt: number | null;
  heredocs: HeredocStart[];
}

const unescape = (text: string): string => text.replace(/\\(.)/gs, "$1");

/** The literal value of a word node, or null when it expands something at run time. */
export function literalOf(node: Node): ShellWord {
  switch (node.type) {
    case "word":
    case "number":
      return unescape(node.text);
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
    case "concatenation": {
      // Anonymous children (`$`, quote marks inside a concatenation) would be lost by joining
      // the named ones, so a concatenation with any of them is treated as non-literal.
      const parts = node.namedChildren;
      if (node.type === "concatenation" && parts.length !== node.childCount) return null;
      let text = "";
      for (const part of parts) {
        const value = part.type === "string_content" ? unescape(part.text) : literalOf(part);
        if (value === null) return null;
        text += value;
      }
      return text;
    }
    default:
      return null;
  }
}

function commandWords(command: Node): ShellWord[] {
  // command_name wraps the actual word node.
  const nameWord = command.childForFieldName("name")?.namedChildren[0];
  const name = nameWord ? literalOf(nameWord) : null;
  return [name, ...command.childrenForFieldName("argument").map(literalOf)];
}

function heredocStart(redirect: Node): HeredocStart | null {
  const start = redirect.namedChildren.find((child) => child.type === "heredoc_start");
  if (!start) return null;
  return {
    row: start.startPosition.row,
    // `<<'EOF'`, `<<"EOF"` and `<<\EOF` all end at a line reading EOF.
    delimiter: start.text.replace(/["'\\]/g, ""),
    stripsTabs: redirect.children[0]?.type === "<<-",
  };
}

// Every node kind the reading needs, fetched in one traversal: each descendantsOfType call walks
// the whole tree in WASM, and five separate walks cost more than the parse itself.
const READ_TYPES = ["function_definition", "heredoc_redirect", "command", "comment", "word", "file_redirect"];

/** What one statement (or a whole tree with errors) holds; rows and offsets relative to its start. */
interface NodeFacts {
  commands: ShellWord[][];
  functions: string[];
  commentRows: number[];
  heredocs: HeredocStart[];
  gluedLines: boolean;
  gluedAt: number | null;
}

function readNode(top: Node, lines: readonly string[]): NodeFacts {
  const baseRow = top.startPosition.row;
  const baseIndex = top.startIndex;
  const facts: NodeFacts = { commands: [], functions: [], commentRows: [], heredocs: [], gluedLines: false, gluedAt: null };
  for (const node of top.descendantsOfType(READ_TYPES)) {
    switch (node.type) {
      case "word":
        if (!facts.gluedLines && NEWLINE_IN_WORD.test(node.text)) facts.gluedLines = true;
        break;
      case "command": {
        facts.commands.push(commandWords(node));
        // glueIn reads only lines the command spans: the reading stays a function of its text.
        const glue = glueIn(node, lines);
        facts.gluedAt = earlierGlue(facts.gluedAt, glue, -baseIndex);
        break;
      }
      case "file_redirect":
        facts.gluedAt = earlierGlue(facts.gluedAt, redirectGlueIn(node, lines), -baseIndex);
        break;
      case "comment":
        facts.commentRows.push(node.startPosition.row - baseRow);
        break;
      case "function_definition": {
        const name = node.childForFieldName("name")?.text;
        if (name) facts.functions.push(name);
        break;
      }
      case "heredoc_redirect": {
        const start = heredocStart(node);
        if (start) facts.heredocs.push({ ...start, row: start.row - baseRow });
        break;
      }
    }
  }
  return facts;
}

/** Statements read before, in this thread: a child's script repeats its parent's (./statements). */
const statementFacts = new StatementMemo<NodeFacts>(4_000_000);

/** Forget the remembered statements (tests and benchmarks measure the uncached path with it). */
export function clearBashStatementMemo(): void {
  statementFacts.clear();
}

/** Everything measureShell needs from the script's tree, copied out so the tree can be deleted.
 * `lines`: the script's lines, for finding glued ones. A tree without errors is read statement by
 * statement, each remembered; a tree with errors is read whole (error recovery can make the same
 * text parse differently in another context). */
export function readBashTree(script: ParsedScript, lines: readonly string[]): BashTreeReading {
  const root = script.hasError ? script.root : null;
  const parts = root
    ? [{ reading: readNode(root, lines), startIndex: root.startIndex, startRow: root.startPosition.row }]
    : statementFacts.readAll(script.statements.filter((s) => s.isNamed), (node) => readNode(node, lines));
  const functions: string[] = [];
  const heredocs: HeredocStart[] = [];
  const commands: ShellWord[][] = [];
  const commentRows: number[] = [];
  let gluedLines = false;
  let gluedAt: number | null = null;
  for (const { reading, startIndex, startRow } of parts) {
    for (const words of reading.commands) commands.push(words);
    for (const name of reading.functions) functions.push(name);
    for (const row of reading.commentRows) commentRows.push(row + startRow);
    for (const h of reading.heredocs) heredocs.push({ ...h, row: h.row + startRow });
    if (reading.gluedLines) gluedLines = true;
    gluedAt = earlierGlue(gluedAt, reading.gluedAt, startIndex);
  }
  return {
    facts: { commands, functions, extraTools: [], commentRows },
    hasError: script.hasError,
    gluedLines,
    gluedAt: script.hasError ? null : gluedAt,
    heredocs,
  };
}
