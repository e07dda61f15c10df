// tree-sitter-bash sometimes runs a command on into the next line with no error node: after a long
// `\`-continued pipeline (`| uniq -c⏎jq …⏎diff …` read as one command), or onto a line starting
// with `\` (`\cp -f a b`). A newline there ends the command in bash. Both the metrics (commands,
// distinct tools) and the checks' reading of a solution find the glue here and repair it the same
// way; so are a word it splits in two (`splitIn`) and one construct its grammar cannot read at all
// (`unbraceSubstringOffsets`). Server only.
import type { Node } from "web-tree-sitter";
import { commonPrefix } from "./outlines";
import { confirmOutline, noteInserted, repairedOutlines, withCleanStatements, withStatements, type ParsedScript } from "./script-parse";

/** An unescaped newline cannot be part of an unquoted word in bash. */
export const NEWLINE_IN_WORD = /(^|[^\\])\n/;

/**
 * Where tree-sitter glued a line onto `command` (a `command` node): the offset, in the parsed text,
 * at which the command must end; null when it reads right. A command (its assignments, name and
 * arguments) cannot continue on the next line without a trailing backslash, and an unquoted word
 * cannot span a line break.
 * `lines`: the script's lines (rows of the parsed text).
 */
export function glueIn(command: Node, lines: readonly string[]): number | null {
  if (command.startPosition.row === command.endPosition.row) return null;
  let at: number | null = null;
  const glue = (offset: number) => {
    if (at === null || offset < at) at = offset;
  };
  const name = command.childForFieldName("name");
  // The assignments and redirects before the name (`n=0 total=0⏎while read -r v; do`, after some
  // earlier text, reads as a command named `while`): the name on a later line is glue too.
  let before: Node | null = null;
  for (const child of command.namedChildren) {
    if (name && child.startIndex >= name.startIndex) break;
    before = child;
  }
  if (before && name) {
    const row = before.endPosition.row;
    if (name.startPosition.row > row && !(lines[row] ?? "").trimEnd().endsWith("\\")) glue(before.endIndex);
  }
  let prev: Node = name?.namedChildren[0] ?? command;
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

/**
 * A substring expansion whose offset starts with a plain `$name` or `$1` (`${a:$i:1}`,
 * `"${files[@]:$KEEP}"`, `${a: $K - 1}`) is an error to tree-sitter-bash 0.25, which then sends the
 * whole script to the slow fallback parser, and every later script repeating the line (a child
 * task's) as well. The offset is an arithmetic expression, where bash reads a bare name as that
 * variable's value: `${a: i:1}` means the same and parses. The `$` becomes a space (never `:-`):
 * the same length, rows and offsets, so readings map back to the source unchanged. A length's
 * `$name` (`${a:1:$n}`) parses as it is. Anywhere in the text, quoted or not: in a single-quoted
 * word the change is inside a value that holds an expansion's syntax, which no reading resolves.
 */
const SUBSTRING_OFFSET = /\$\{!?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\[[^\]\n]*\])?: *\$(?=[A-Za-z_0-9])/g;

export function unbraceSubstringOffsets(source: string): string {
  if (!source.includes(":$") && !source.includes(": $")) return source;
  return source.replace(SUBSTRING_OFFSET, (m) => `${m.slice(0, -1)} `);
}

/** A name a `$` expands: a variable's or one positional parameter's. */
const DOLLAR_NAME = "(?:[A-Za-z_][A-Za-z0-9_]*|[0-9])";
const SPLIT_NAME = new RegExp(`^${DOLLAR_NAME}`);

/**
 * Where tree-sitter-bash split one word in two (`script`'s statements parsed here; none in a tree
 * with errors): after an expansion and more text, a `$name` followed by `.`, `-`, `/`, `,`, `+`,
 * `~`, `^`, `!` or `*` (`$DEST/shipping-$stamp.tar.gz`, `$a/$b/$c.d`) ends the word with a bare
 * `$`, and `stamp.tar.gz` becomes a word of its own — one more argument, or after an assignment a
 * command named `stamp.tar.gz` — with no error node. Bash reads `$stamp` there. The offset in
 * `text` of the name after the first such `$`; null: none. Bracing the name (`${stamp}.tar.gz`,
 * the same word to bash) reads right.
 */
export function splitIn(script: ParsedScript, text: string): number | null {
  if (script.hasError) return null;
  // The metrics, the checks and the step spans read the same parse of a text (./tree-sitter).
  const known = splitsFound.get(script);
  if (known !== undefined) return known;
  // Walking a statement costs a call into WASM and an object per node: only statements holding a
  // `$name` that is not the start of a word and is followed by a split character are walked.
  const risks: number[] = [];
  for (const m of text.matchAll(SPLIT_RISK)) risks.push(m.index);
  let at: number | null = null;
  let r = 0;
  for (const statement of script.statements) {
    while (r < risks.length && risks[r]! < statement.startIndex) r++;
    if (r === risks.length || (at !== null && statement.startIndex > at)) break;
    if (statement.node === null || risks[r]! >= statement.endIndex) continue;
    for (const word of statement.node.descendantsOfType("concatenation")) {
      const last = word.lastChild;
      if (last === null || last.isNamed || last.type !== "$" || !SPLIT_NAME.test(text.slice(word.endIndex, word.endIndex + 1))) continue;
      if (at === null || word.endIndex < at) at = word.endIndex;
    }
  }
  splitsFound.set(script, at);
  return at;
}

/** A text `splitIn` can find a split in: a `$` after a character of the same word, its name, and
 * one of the characters after which tree-sitter-bash splits. */
const SPLIT_RISK = new RegExp(`\\S\\$${DOLLAR_NAME}[.,/+~^!*-]`, "g");
const splitsFound = new WeakMap<ParsedScript, number | null>();

/**
 * The repairs a script read before in this import (a parent task's solve.sh: `repairedOutlines`)
 * needed on the lines `text` shares with it, whole lines only: each character and its offset as it
 * will stand in `text` once the ones before it are written, ascending. To bash they change nothing
 * (a `;` where a line break already ends the command, braces around a name), and a line reads the
 * same to bash whatever follows it, so they may be written before the first parse. That parse then
 * resumes near the end of the earlier script's repaired text instead of at its first repair: a
 * script's outline is confirmed only up to its first misreading (./outlines), so without them every
 * descendant of a script with a glue would parse everything after it, twice.
 */
function repairsShared(text: string): { at: number; char: string }[] {
  let best: { at: number; char: string }[] = [];
  for (const outline of repairedOutlines("bash")) {
    const inserted = outline.inserted!;
    const parts: string[] = [];
    let from = 0;
    for (const at of inserted) {
      parts.push(outline.text.slice(from, at));
      from = at + 1;
    }
    parts.push(outline.text.slice(from));
    const script = parts.join("");
    const shared = commonPrefix(text, script);
    const taken: { at: number; char: string }[] = [];
    // A brace written without its closing one would change the word: both or neither.
    let unclosed = -1;
    for (let k = 0; k < inserted.length; k++) {
      const at = inserted[k]!;
      const lineEnd = script.indexOf("\n", at - k);
      if (lineEnd === -1 || lineEnd >= shared) break;
      const char = outline.text[at]!;
      if (char === "{") unclosed = taken.length;
      else if (char === "}") unclosed = -1;
      taken.push({ at, char });
    }
    if (unclosed !== -1) taken.length = unclosed;
    if (taken.length > best.length) best = taken;
  }
  return best;
}

/** Repairs tried before the caller gives up on tree-sitter (each is one more parse). */
const MAX_REPAIRS = 8;

/**
 * Parses `source` (its substring offsets unbraced first: `unbraceSubstringOffsets`) and reads it
 * with `read`; while the reading has a glue (`gluedAt`, which `read` leaves null for a tree with
 * syntax errors), a `;` is written where the glue starts (the same thing to the shell; rows are
 * unchanged), and while tree-sitter split a word (`splitIn`), the name after the split is braced;
 * the text is parsed again, up to MAX_REPAIRS times in all. The repairs a parent task's script
 * needed on the lines this one shares with it are written before the first parse
 * (`repairsShared`). The last reading is returned: one that still has `gluedAt` set is the
 * caller's to distrust.
 */
export async function readRepairingGlue<T extends { gluedAt: number | null }>(source: string, read: (script: ParsedScript, text: string) => T): Promise<T> {
  return (await readRepairingGlueMapped(source, read)).reading;
}

/**
 * `readRepairingGlue`, with `toSource` mapping an offset in the text the reading was made of (with
 * its `;`s and braces) back to `source`: for readings that keep offsets.
 */
export async function readRepairingGlueMapped<T extends { gluedAt: number | null }>(
  source: string,
  read: (script: ParsedScript, text: string) => T,
): Promise<{ reading: T; toSource: (offset: number) => number }> {
  const unbraced = unbraceSubstringOffsets(source);
  let text = unbraced;
  /** where each inserted character (`;`, `{`, `}`) is in `text` */
  const inserted: number[] = [];
  const insert = (at: number, char: string): void => {
    for (let k = 0; k < inserted.length; k++) if (inserted[k]! >= at) inserted[k]!++;
    inserted.push(at);
    text = `${text.slice(0, at)}${char}${text.slice(at)}`;
  };
  // Repairs taken from an earlier script count as made here: the same text gets as many in all.
  let left = MAX_REPAIRS;
  /** the text about to be parsed holds repairs taken from an earlier script */
  let taken = false;
  for (const { at, char } of repairsShared(text)) {
    insert(at, char);
    if (char !== "}") left--;
    taken = true;
  }
  for (; ; left--) {
    const parsed = text;
    const readAll = (script: ParsedScript) => ({ reading: read(script, parsed), split: splitIn(script, parsed), hasError: script.hasError });
    const result = taken ? await withCleanStatements("bash", parsed, readAll) : await withStatements("bash", parsed, readAll);
    if (result === null || (taken && result.hasError)) {
      // A tree with an error is read as it is, unrepaired (the readers report no glue in one), and
      // error recovery may settle differently around a repair: the script is read as it was given.
      taken = false;
      text = unbraced;
      inserted.length = 0;
      left = MAX_REPAIRS + 1;
      continue;
    }
    const { reading, split } = result;
    // Only the text first parsed may be given up: later ones are this script's own repairs.
    taken = false;
    const glue = reading.gluedAt;
    const at = glue === null ? split : split === null ? glue : Math.min(glue, split);
    // Its statements before the first misreading read as tree-sitter reads them anywhere: another
    // script sharing them may be parsed from there on (./outlines).
    confirmOutline("bash", parsed, at ?? parsed.length);
    if (at === null && inserted.length > 0) noteInserted("bash", parsed, inserted);
    if (at === null || left === 0) {
      const toSource = (offset: number) => offset - inserted.filter((k) => k < offset).length;
      return { reading, toSource };
    }
    if (at === glue) {
      insert(at, ";");
    } else {
      const name = SPLIT_NAME.exec(parsed.slice(at, at + 256))?.[0] ?? "";
      insert(at, "{");
      insert(at + 1 + name.length, "}");
    }
  }
}
