import type { Node, Tree } from "web-tree-sitter";
import type { HeredocStart } from "./heredoc-risk";
import { glueIn, NEWLINE_IN_WORD } from "./shell-glue";
import type { ShellFacts } from "./shell-facts";
import type { ShellWord } from "./shell-tools";

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
const READ_TYPES = ["function_definition", "heredoc_redirect", "command", "comment", "word"];

/** Everything measureShell needs from the tree, copied out so the tree can be deleted. `lines`:
 * the script's lines, for finding glued ones. */
export function readBashTree(tree: Tree, lines: readonly string[]): BashTreeReading {
  const root = tree.rootNode;
  const functions: string[] = [];
  const heredocs: HeredocStart[] = [];
  const commands: ShellWord[][] = [];
  const commentRows: number[] = [];
  let gluedLines = false;
  let gluedAt: number | null = null;
  for (const node of root.descendantsOfType(READ_TYPES)) {
    switch (node.type) {
      case "word":
        if (!gluedLines && NEWLINE_IN_WORD.test(node.text)) gluedLines = true;
        break;
      case "command": {
        commands.push(commandWords(node));
        const glue = glueIn(node, lines);
        if (glue !== null && (gluedAt === null || glue < gluedAt)) gluedAt = glue;
        break;
      }
      case "comment":
        commentRows.push(node.startPosition.row);
        break;
      case "function_definition": {
        const name = node.childForFieldName("name")?.text;
        if (name) functions.push(name);
        break;
      }
      case "heredoc_redirect": {
        const start = heredocStart(node);
        if (start) heredocs.push(start);
        break;
      }
    }
  }
  return {
    facts: { commands, functions, extraTools: [], commentRows },
    hasError: root.hasError,
    gluedLines,
    gluedAt: root.hasError ? null : gluedAt,
    heredocs,
  };
}
