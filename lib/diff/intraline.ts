// Intra-line changes and side-by-side pairing. Browser-safe.

import { diffArrays } from "diff";
import type { DiffHunk, DiffLine } from "./types";

export interface Segment {
  text: string;
  changed: boolean;
}

export interface IntraLine {
  /** segments of the old line; their texts joined give the old line exactly */
  old: Segment[];
  /** segments of the new line; their texts joined give the new line exactly */
  new: Segment[];
  /** 2 × unchanged characters / (old + new characters), 0..1: views may skip highlighting a
   * line that was rewritten rather than edited (say, below 0.3) */
  similarity: number;
}

/** Lines of at most this many characters (both) are compared character by character (graphemes). */
export const CHAR_LEVEL_MAX = 40;
/** Beyond this length (old + new), only the common prefix and suffix are found. */
export const INTRA_MAX = 10_000;

// Words (letters, digits, underscore, combining marks), runs of whitespace, or one code point.
const WORD_RE = /[\p{L}\p{N}\p{M}_]+|\s+|[^]/gu;

const graphemes: Intl.Segmenter | null =
  typeof Intl !== "undefined" && typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

function charTokens(text: string): string[] {
  if (graphemes) return Array.from(graphemes.segment(text), (s) => s.segment);
  return Array.from(text);
}

function wordTokens(text: string): string[] {
  return text.match(WORD_RE) ?? [];
}

type Piece = { text: string; kind: 0 | 1 | 2 }; // 0 common, 1 old only, 2 new only

/** Common prefix and suffix, at code point boundaries. */
function trimDiff(a: string, b: string): Piece[] {
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  if (p > 0 && (isLowSurrogate(a.charCodeAt(p)) || isLowSurrogate(b.charCodeAt(p)))) p--;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  if (s > 0 && (isLowSurrogate(a.charCodeAt(a.length - s)) || isLowSurrogate(b.charCodeAt(b.length - s)))) s--;
  const pieces: Piece[] = [];
  if (p > 0) pieces.push({ text: a.slice(0, p), kind: 0 });
  pieces.push({ text: a.slice(p, a.length - s), kind: 1 }, { text: b.slice(p, b.length - s), kind: 2 });
  if (s > 0) pieces.push({ text: a.slice(a.length - s), kind: 0 });
  return pieces;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function tokenDiff(oldLine: string, newLine: string): Piece[] {
  const charLevel = Math.max(oldLine.length, newLine.length) <= CHAR_LEVEL_MAX;
  const tokenize = charLevel ? charTokens : wordTokens;
  const changes = diffArrays(tokenize(oldLine), tokenize(newLine), { maxEditLength: 2_000 });
  if (changes === undefined) return trimDiff(oldLine, newLine);
  return changes.map((change) => ({ text: change.value.join(""), kind: change.added ? 2 : change.removed ? 1 : 0 }));
}

/**
 * Swallow short common runs caught between changes (a lone space or punctuation between two
 * rewritten words) so the highlight reads as one change rather than confetti.
 */
function cleanup(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  const first = pieces.findIndex((p) => p.kind !== 0);
  const last = pieces.findLastIndex((p) => p.kind !== 0);
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.kind === 0 && i > first && i < last && piece.text.length <= 1 && !/[\p{L}\p{N}]/u.test(piece.text)) {
      // Both lines hold this text here: it becomes a deletion and an addition.
      out.push({ text: piece.text, kind: 1 }, { text: piece.text, kind: 2 });
    } else out.push(piece);
  }
  return out;
}

function sideOf(pieces: Piece[], side: 1 | 2): Segment[] {
  const segments: Segment[] = [];
  for (const piece of pieces) {
    if (piece.kind !== 0 && piece.kind !== side) continue;
    if (piece.text === "") continue;
    const changed = piece.kind !== 0;
    const last = segments[segments.length - 1];
    if (last && last.changed === changed) last.text += piece.text;
    else segments.push({ text: piece.text, changed });
  }
  return segments;
}

/**
 * What changed within a line: segments of both sides, word by word (character by character, as
 * graphemes, for short lines). Exact: each side's segments join to its line. Pass the lines'
 * `text`: a change of line ending alone yields no changed segment (the view marks `eol` instead).
 */
export function intraLine(oldLine: string, newLine: string): IntraLine {
  if (oldLine === newLine) {
    const same = oldLine === "" ? [] : [{ text: oldLine, changed: false }];
    return { old: same, new: same.map((s) => ({ ...s })), similarity: 1 };
  }
  const raw = oldLine.length + newLine.length > INTRA_MAX ? trimDiff(oldLine, newLine) : tokenDiff(oldLine, newLine);
  const pieces = cleanup(raw);
  const common = pieces.reduce((n, p) => (p.kind === 0 ? n + p.text.length : n), 0);
  return {
    old: sideOf(pieces, 1),
    new: sideOf(pieces, 2),
    similarity: (2 * common) / (oldLine.length + newLine.length),
  };
}

export interface SideBySideRow {
  left?: DiffLine;
  right?: DiffLine;
}

/**
 * Rows of a side-by-side view: context lines on both sides; within each run of deletions followed
 * by additions the i-th deleted line faces the i-th added line, extra lines face nothing.
 */
export function pairRows(hunk: Pick<DiffHunk, "lines">): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  const lines = hunk.lines;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.op === "ctx") {
      rows.push({ left: line, right: line });
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && lines[i]!.op === "del") dels.push(lines[i++]!);
    while (i < lines.length && lines[i]!.op === "add") adds.push(lines[i++]!);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const row: SideBySideRow = {};
      if (k < dels.length) row.left = dels[k]!;
      if (k < adds.length) row.right = adds[k]!;
      rows.push(row);
    }
  }
  return rows;
}
