import type { Node, Tree } from "web-tree-sitter";
import type { HeredocStart } from "./heredoc-risk";
import type { ShellFacts } from "./shell-facts";
import type { ShellWord } from "./shell-tools";

export interface BashTreeReading {
  facts: ShellFacts;
  hasError: boolean;
  /** a word spans a line break: tree-sitter glued a line starting with `\` (`\cp -f a b`)
   * onto the previous command, without an error node */
  gluedLines: boolean;
  heredocs: HeredocStart[];
}

// An unescaped newline cannot be part of an unquoted word in bash.
const NEWLINE_IN_WORD = /(^|[^\\])\n/;

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

/** Everything measureShell needs from the tree, copied out so the tree can be deleted. */
export function readBashTree(tree: Tree): BashTreeReading {
  const root = tree.rootNode;
  const functions: string[] = [];
  for (const definition of root.descendantsOfType("function_definition")) {
    const name = definition.childForFieldName("name")?.text;
    if (name) functions.push(name);
  }
  const heredocs: HeredocStart[] = [];
  for (const redirect of root.descendantsOfType("heredoc_redirect")) {
    const start = heredocStart(redirect);
    if (start) heredocs.push(start);
  }
  return {
    facts: {
      commands: root.descendantsOfType("command").map(commandWords),
      functions,
      extraTools: [],
      commentRows: root.descendantsOfType("comment").map((comment) => comment.startPosition.row),
    },
    hasError: root.hasError,
    gluedLines: root.descendantsOfType("word").some((word) => NEWLINE_IN_WORD.test(word.text)),
    heredocs,
  };
}
