// The units a step summary compares, without a parser: sentences of an instruction, and the
// line-based fallback split of a shell script into commands. Browser-safe.

/** An item of a summary: what is shown, and what is compared. */
export interface Unit {
  text: string;
  key: string;
}

/** LF only, without a BOM (as lib/metrics/source.ts does before parsing). */
export function normalizeNewlines(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

// ---------------------------------------------------------------------------------------------
// Instruction sentences

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_RE = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;
const HEADING_RE = /^ {0,3}#{1,6}(?:\s+|$)/;
const QUOTE_RE = /^ {0,3}>\s?/;
const RULE_RE = /^ {0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/;
const TABLE_RULE_RE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;

const sentenceSegmenter: Intl.Segmenter | null =
  typeof Intl !== "undefined" && typeof Intl.Segmenter === "function" ? new Intl.Segmenter("en", { granularity: "sentence" }) : null;

function splitSentences(text: string): string[] {
  if (sentenceSegmenter) return Array.from(sentenceSegmenter.segment(text), (s) => s.segment);
  return text.split(/(?<=[.!?])\s+(?=\S)/);
}

/** The comparison key of a sentence: case, spacing, emphasis markers and final punctuation do not count. */
export function sentenceKey(text: string): string {
  return collapse(text.normalize("NFC").replace(/\*\*|__/g, ""))
    .toLowerCase()
    .replace(/[\s.!?:;,]+$/u, "");
}

/**
 * An instruction (markdown) as sentences and list items, in order. Headings and table rows are
 * items of their own; a fenced code block is one item; paragraphs and list items are split into
 * sentences (Intl.Segmenter). Markers (`- `, `1. `, `# `, `> `) are dropped; spacing is collapsed.
 */
export function instructionSentences(markdown: string): Unit[] {
  const units: Unit[] = [];
  const add = (text: string) => {
    for (const sentence of splitSentences(text)) {
      const shown = collapse(sentence);
      if (shown === "" || /^\d+[.)]?$/.test(shown) || !/[\p{L}\p{N}]/u.test(shown)) continue;
      units.push({ text: shown, key: sentenceKey(shown) });
    }
  };
  let block: string[] = [];
  const flush = () => {
    if (block.length > 0) add(block.join(" "));
    block = [];
  };
  const lines = normalizeNewlines(markdown).split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const fence = FENCE_RE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const body: string[] = [];
      for (i++; i < lines.length; i++) {
        const close = lines[i]!.trim();
        if (close.startsWith(marker[0]!.repeat(marker.length)) && /^[`~]+$/.test(close)) break;
        body.push(lines[i]!);
      }
      const code = body.join("\n").replace(/^\n+|\s+$/g, "");
      if (code !== "") units.push({ text: code, key: `code:${collapse(code)}` });
      continue;
    }
    while (QUOTE_RE.test(line)) line = line.replace(QUOTE_RE, "");
    if (line.trim() === "" || RULE_RE.test(line)) {
      flush();
    } else if (HEADING_RE.test(line)) {
      flush();
      add(line.replace(HEADING_RE, "").replace(/\s#+\s*$/, ""));
    } else if (/^\s*\|/.test(line)) {
      flush();
      if (!TABLE_RULE_RE.test(line)) add(line.trim().replace(/^\||\|$/g, "").split("|").map(collapse).join(" | "));
    } else if (LIST_RE.test(line)) {
      flush();
      block.push(line.replace(LIST_RE, ""));
    } else {
      block.push(line);
    }
  }
  flush();
  return units;
}

// ---------------------------------------------------------------------------------------------
// Shell commands without a parser

const HEREDOC_RE = /(?<!<)<<(?!<)(-?)\s*(?:'([^']+)'|"([^"]+)"|\\?([A-Za-z_][\w.-]*))/g;

/** Drop a trailing `# comment` when the `#` starts a word outside quotes (rough, for the fallback). */
function stripTrailingComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line;
}

/** Comparison key of a command: spacing inside lines does not count. */
export function commandKey(text: string): string {
  return text
    .split("\n")
    .map(collapse)
    .filter((l) => l !== "")
    .join("\n");
}

/**
 * A shell script as logical commands, line by line: comments and blank lines dropped, backslash
 * continuations joined into one line, a heredoc kept with its body as one item. The fallback when
 * the script cannot be parsed (compound commands come out one line at a time).
 */
export function shellCommandsByLine(script: string): Unit[] {
  const lines = normalizeNewlines(script).split("\n");
  const units: Unit[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    let text = stripTrailingComment(line).trim();
    // Backslash continuations: an odd number of trailing backslashes.
    while (/(^|[^\\])(\\\\)*\\$/.test(text) && i + 1 < lines.length) {
      line = lines[++i]!;
      text = `${text.slice(0, -1).trimEnd()} ${stripTrailingComment(line).trim()}`.trim();
    }
    const heredocs = [...text.matchAll(HEREDOC_RE)];
    for (const match of heredocs) {
      const delimiter = match[2] ?? match[3] ?? match[4] ?? "";
      const stripTabs = match[1] === "-";
      const body: string[] = [];
      for (i++; i < lines.length; i++) {
        const candidate = stripTabs ? lines[i]!.replace(/^\t+/, "") : lines[i]!;
        if (candidate === delimiter) break;
        body.push(lines[i]!);
      }
      text = [text, ...body, delimiter].join("\n");
    }
    if (text !== "") units.push({ text, key: commandKey(text) });
  }
  return units;
}

// ---------------------------------------------------------------------------------------------

/**
 * The units of `next` that `prev` does not have, in order, compared as multisets of keys: a unit
 * that occurs twice in `next` and once in `prev` is new once (its later occurrence).
 */
export function newUnits(prev: readonly Unit[], next: readonly Unit[], asSet = false): string[] {
  const remaining = new Map<string, number>();
  for (const unit of prev) remaining.set(unit.key, asSet ? 1 : (remaining.get(unit.key) ?? 0) + 1);
  const out: string[] = [];
  const reported = new Set<string>();
  for (const unit of next) {
    const left = remaining.get(unit.key) ?? 0;
    if (asSet) {
      if (left > 0 || reported.has(unit.key)) continue;
      reported.add(unit.key);
      out.push(unit.text);
    } else if (left > 0) remaining.set(unit.key, left - 1);
    else out.push(unit.text);
  }
  return out;
}
