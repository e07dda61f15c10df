// diffText / applyHunks: the structured line diff of two texts, exact to the byte. Browser-safe
// (no node: imports, no parsers): the diff views import this module.

import { alignSequences, DEFAULT_MAX_EDIT_LENGTH } from "./align";
import type { DiffHunk, DiffLine, DiffOptions, Eol, FileStatus, TextDiff } from "./types";

export const DEFAULT_CONTEXT = 3;

/**
 * Split into raw lines, each with its own ending: `"a\r\nb"` → `["a\r\n", "b"]`. Only LF ends a
 * line, so a lone `\r` stays inside its line. Joining the result gives the text back.
 */
export function rawLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) break;
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** A raw line (with its ending) as the text and eol flag of a DiffLine. */
export function splitEnding(raw: string): { text: string; eol?: Eol } {
  if (!raw.endsWith("\n")) return { text: raw, eol: "none" };
  if (raw.endsWith("\r\n")) return { text: raw.slice(0, -2), eol: "crlf" };
  return { text: raw.slice(0, -1) };
}

/** The raw line a DiffLine stands for: its text and its ending. */
export function lineRaw(line: Pick<DiffLine, "text" | "eol">): string {
  return line.eol === "none" ? line.text : line.eol === "crlf" ? `${line.text}\r\n` : `${line.text}\n`;
}

function makeLine(op: DiffLine["op"], oldNo: number | null, newNo: number | null, raw: string): DiffLine {
  const { text, eol } = splitEnding(raw);
  const line: DiffLine = { op, old_no: oldNo, new_no: newNo, text };
  if (eol) line.eol = eol;
  return line;
}

function checkContext(context: number): number {
  if (context === Infinity) return context;
  if (!Number.isInteger(context) || context < 0) throw new RangeError(`context must be a non-negative integer or Infinity, got ${context}`);
  return context;
}

/** One changed region: old lines [a, a+del) replaced by new lines [b, b+add), 0-based. */
interface Block {
  a: number;
  b: number;
  del: number;
  add: number;
}

/**
 * The line diff of two texts. `null` stands for a file that does not exist on that side
 * (status "added" or "removed"); an empty string is an empty file.
 */
export function diffText(oldText: string | null, newText: string | null, opts: DiffOptions = {}): TextDiff {
  const context = checkContext(opts.context ?? DEFAULT_CONTEXT);
  const oldLines = oldText === null ? [] : rawLines(oldText);
  const newLines = newText === null ? [] : rawLines(newText);
  const status: FileStatus =
    oldText === null ? (newText === null ? "unchanged" : "added") : newText === null ? "removed" : oldText === newText ? "unchanged" : "modified";
  const base = { status, old_line_count: oldLines.length, new_line_count: newLines.length };
  if (status === "unchanged") return { ...base, hunks: [], added: 0, removed: 0 };

  // Intern raw lines (ending included) so the aligner compares integers.
  const ids = new Map<string, number>();
  const intern = (lines: string[]): Int32Array => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  const script = alignSequences(intern(oldLines), intern(newLines), opts.maxEditLength ?? DEFAULT_MAX_EDIT_LENGTH);

  const blocks: Block[] = [];
  let a = 0;
  let b = 0;
  let added = 0;
  let removed = 0;
  for (let k = 0; k < script.ops.length; k++) {
    const op = script.ops[k]!;
    const count = script.counts[k]!;
    if (op === 0) {
      a += count;
      b += count;
      continue;
    }
    // alignSequences yields a deletion run directly followed by its addition run.
    const last = blocks[blocks.length - 1];
    const block = last && last.a + last.del === a && last.b + last.add === b ? last : { a, b, del: 0, add: 0 };
    if (block !== last) blocks.push(block);
    if (op === 1) {
      block.del += count;
      removed += count;
      a += count;
    } else {
      block.add += count;
      added += count;
      b += count;
    }
  }

  // Group changed regions whose unchanged gap is at most 2 × context into one hunk.
  const hunks: DiffHunk[] = [];
  let group: Block[] = [];
  const flush = () => {
    if (group.length > 0) hunks.push(buildHunk(group, oldLines, newLines, context));
    group = [];
  };
  for (const block of blocks) {
    const prev = group[group.length - 1];
    if (prev && block.a - (prev.a + prev.del) > 2 * context) flush();
    group.push(block);
  }
  flush();
  const result: TextDiff = { ...base, hunks, added, removed };
  if (script.coarse) result.coarse = true;
  return result;
}

function buildHunk(group: Block[], oldLines: string[], newLines: string[], context: number): DiffHunk {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  const lead = Math.min(context, first.a, first.b); // a and b trail equally before a change
  const oldStart = first.a - lead;
  const newStart = first.b - lead;
  const oldEnd = Math.min(oldLines.length, last.a + last.del + context);
  const lines: DiffLine[] = [];
  let a = oldStart;
  let b = newStart;
  const ctxUntil = (stop: number) => {
    for (; a < stop; a++, b++) lines.push(makeLine("ctx", a + 1, b + 1, oldLines[a]!));
  };
  for (const block of group) {
    ctxUntil(block.a);
    for (let i = 0; i < block.del; i++, a++) lines.push(makeLine("del", a + 1, null, oldLines[a]!));
    for (let j = 0; j < block.add; j++, b++) lines.push(makeLine("add", null, b + 1, newLines[b]!));
  }
  ctxUntil(oldEnd);
  return { old_start: oldStart + 1, new_start: newStart + 1, old_lines: a - oldStart, new_lines: b - newStart, lines };
}

export class ApplyError extends Error {
  override name = "ApplyError";
}

/**
 * Apply a diff to the old text and return the new text, exactly (line endings and a missing final
 * newline included). Context and deleted lines must match the old text; otherwise an ApplyError.
 * Returns null for a "removed" result (the file no longer exists).
 */
export function applyHunks(oldText: string | null, diff: Pick<TextDiff, "status" | "hunks">): string | null {
  if (diff.status === "removed") return null;
  if (diff.status === "unchanged") return oldText;
  const old = oldText === null ? [] : rawLines(oldText);
  const out: string[] = [];
  let cursor = 0; // 0-based index of the next old line not yet consumed
  for (const [h, hunk] of diff.hunks.entries()) {
    const start = hunk.old_start - 1;
    if (!Number.isInteger(start) || start < cursor || start > old.length) {
      throw new ApplyError(`hunk ${h + 1}: old_start ${hunk.old_start} out of order or past the end (at line ${cursor + 1} of ${old.length})`);
    }
    for (; cursor < start; cursor++) out.push(old[cursor]!);
    for (const line of hunk.lines) {
      const raw = lineRaw(line);
      if (line.op === "add") {
        out.push(raw);
        continue;
      }
      if (old[cursor] !== raw) {
        throw new ApplyError(`hunk ${h + 1}: old line ${cursor + 1} does not match the ${line.op === "del" ? "deleted" : "context"} line`);
      }
      if (line.op === "ctx") out.push(raw);
      cursor++;
    }
  }
  for (; cursor < old.length; cursor++) out.push(old[cursor]!);
  return out.join("");
}

/** A run of unchanged lines hidden between hunks (or before the first / after the last). */
export interface DiffGap {
  /** 1-based first old and new line of the run */
  old_start: number;
  new_start: number;
  lines: number;
}

/**
 * The unchanged lines a view hides between, before and after the hunks: what an "expand" button
 * reveals (the lines themselves come from either side's text, e.g. via rawLines).
 */
export function diffGaps(diff: TextDiff): DiffGap[] {
  const gaps: DiffGap[] = [];
  if (diff.status !== "modified") return gaps;
  let a = 1;
  let b = 1;
  for (const hunk of diff.hunks) {
    if (hunk.old_start > a) gaps.push({ old_start: a, new_start: b, lines: hunk.old_start - a });
    a = hunk.old_start + hunk.old_lines;
    b = hunk.new_start + hunk.new_lines;
  }
  if (diff.old_line_count >= a) gaps.push({ old_start: a, new_start: b, lines: diff.old_line_count - a + 1 });
  return gaps;
}
