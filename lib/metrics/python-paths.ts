import type { Node } from "web-tree-sitter";

const SIMPLE_ESCAPE = /\\([\\'"])/g;

/** The literal text a string node starts with, up to its first interpolation, and whether an
 * interpolation cut it short. */
function literalPrefix(string: Node): { text: string; cut: boolean } {
  const start = string.children[0];
  const raw = start?.type === "string_start" && start.text.toLowerCase().includes("r");
  let text = "";
  for (const child of string.namedChildren) {
    if (child.type === "interpolation") return { text, cut: true };
    if (child.type !== "string_content") continue;
    // f-string `{{` needs no decoding: absolutePathIn cuts at the first brace anyway.
    text += raw ? child.text : child.text.replace(SIMPLE_ESCAPE, "$1");
  }
  return { text, cut: false };
}

/** Implicitly concatenated literals (`"/app/" "out.txt"`) are one value, as Python sees them. */
function literalValue(node: Node): string {
  if (node.type === "string") return literalPrefix(node).text;
  let text = "";
  for (const part of node.namedChildren) {
    if (part.type !== "string") continue;
    const { text: piece, cut } = literalPrefix(part);
    text += piece;
    if (cut) break;
  }
  return text;
}

// `"/app/{}.txt".format(x)` and `"/app/%s" % x` name a directory, not the file.
const PLACEHOLDER = /\{|%[sdrif(]/;
const ABSOLUTE_PATH = /^\/(?!\/)[^\s\\]*$/;

/** The absolute-path part of a literal: everything before a placeholder, if it still names
 * something (`/`, `//host` and text with spaces or backslashes are not file paths). */
export function absolutePathIn(literal: string): string | null {
  const placeholder = literal.search(PLACEHOLDER);
  const path = placeholder === -1 ? literal : literal.slice(0, placeholder);
  if (!ABSOLUTE_PATH.test(path) || !/[A-Za-z0-9]/.test(path)) return null;
  return path;
}

/**
 * The absolute file path a `string` or `concatenated_string` node spells, or null. f-strings
 * contribute their literal text before the first `{…}` (`f"/app/{name}.csv"` gives `/app/`);
 * later literal parts are relative to a value we cannot know.
 */
export function absolutePathOf(node: Node): string | null {
  return absolutePathIn(literalValue(node));
}
