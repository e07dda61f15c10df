// tree-sitter-bash sometimes runs a command on into the next line with no error node: after a long
// `\`-continued pipeline (`| uniq -c⏎jq …⏎diff …` read as one command), or onto a line starting
// with `\` (`\cp -f a b`). A newline there ends the command in bash. Both the metrics (commands,
// distinct tools) and the checks' reading of a solution find the glue here and repair it the same
// way. Server only.
import type { Node } from "web-tree-sitter";
import { confirmOutline, withStatements, type ParsedScript } from "./tree-sitter";

/** An unescaped newline cannot be part of an unquoted word in bash. */
export const NEWLINE_IN_WORD = /(^|[^\\])\n/;

/**
 * Where tree-sitter glued a line onto `command` (a `command` node): the offset, in the parsed text,
 * at which the command must end; null when it reads right. A command cannot continue on the next
 * line without a trailing backslash, and an unquoted word cannot span a line break.
 * `lines`: the script's lines (rows of the parsed text).
 */
export function glueIn(command: Node, lines: readonly string[]): number | null {
  if (command.startPosition.row === command.endPosition.row) return null;
  let at: number | null = null;
  const glue = (offset: number) => {
    if (at === null || offset < at) at = offset;
  };
  let prev: Node = command.childForFieldName("name")?.namedChildren[0] ?? command;
  for (const a of command.childrenForFieldName("argument")) {
    const prevEnd = prev.endPosition.row;
    if (a.startPosition.row > prevEnd && !(lines[prevEnd] ?? "").trimEnd().endsWith("\\")) glue(prev.endIndex);
    if (a.type === "word" || a.type === "concatenation") {
      const m = NEWLINE_IN_WORD.exec(a.text);
      if (m) glue(a.startIndex + m.index + (m[1] ?? "").length);
    }
    prev = a;
  }
  return at;
}

/**
 * Where tree-sitter glued the next lines onto a redirect's destination (a `file_redirect` node):
 * after a long `\`-continued pipeline it can read `> "$out"⏎⏎# comment⏎next command …` as one
 * redirect whose destination runs on over the following lines. As in `glueIn`, a part that starts
 * on a later row than the one before it, with no trailing backslash between, is glue; null: none.
 */
export function redirectGlueIn(redirect: Node, lines: readonly string[]): number | null {
  if (redirect.startPosition.row === redirect.endPosition.row) return null;
  let prev: Node | null = null;
  for (const part of redirect.namedChildren) {
    if (prev && part.startPosition.row > prev.endPosition.row && !(lines[prev.endPosition.row] ?? "").trimEnd().endsWith("\\")) return prev.endIndex;
    prev = part;
  }
  return null;
}

/** The earlier of two glue offsets (null: no glue), `candidate` moved by `shift` first: readers
 * keep a statement's glue relative to its start and place it again in the script. */
export function earlierGlue(current: number | null, candidate: number | null, shift = 0): number | null {
  if (candidate === null) return current;
  const at = candidate + shift;
  return current === null || at < current ? at : current;
}

/** Repairs tried before the caller gives up on tree-sitter (each is one more parse). */
const MAX_REPAIRS = 8;

/**
 * Parses `source` and reads it with `read`; while the reading has a glue (`gluedAt`, which `read`
 * leaves null for a tree with syntax errors), a `;` is written where the glue starts (the same thing
 * to the shell; rows are unchanged) and the text is parsed again, up to MAX_REPAIRS times. The last
 * reading is returned: one that still has `gluedAt` set is the caller's to distrust.
 */
export async function readRepairingGlue<T extends { gluedAt: number | null }>(source: string, read: (script: ParsedScript, text: string) => T): Promise<T> {
  return (await readRepairingGlueMapped(source, read)).reading;
}

/**
 * `readRepairingGlue`, with `toSource` mapping an offset in the text the reading was made of (with
 * its `;`s) back to `source`: for readings that keep offsets.
 */
export async function readRepairingGlueMapped<T extends { gluedAt: number | null }>(
  source: string,
  read: (script: ParsedScript, text: string) => T,
): Promise<{ reading: T; toSource: (offset: number) => number }> {
  let text = source;
  /** where each inserted `;` is in `text` */
  const inserted: number[] = [];
  for (let left = MAX_REPAIRS; ; left--) {
    const parsed = text;
    const reading = await withStatements("bash", parsed, (script) => read(script, parsed));
    // Its statements before the first glue read as tree-sitter reads them anywhere: another script
    // sharing them may be parsed from there on (./outlines).
    confirmOutline("bash", parsed, reading.gluedAt ?? parsed.length);
    if (reading.gluedAt === null || left === 0) {
      const toSource = (offset: number) => offset - inserted.filter((at) => at < offset).length;
      return { reading, toSource };
    }
    const at = reading.gluedAt;
    for (let k = 0; k < inserted.length; k++) if (inserted[k]! >= at) inserted[k]!++;
    inserted.push(at);
    text = `${text.slice(0, at)};${text.slice(at)}`;
  }
}
