// Where a task-table search matched: the line of the task's searched files (instruction,
// solution, tests) that shows the most of the search's terms, for the row under each result.
// The index matches words (lib/tasks/search.ts); here a term is its words in order with anything
// but letters, digits and `_` between them, case folded — the same reading, on the raw text.
import { isSearchedFile, searchTerms } from "./search";

export interface Snippet {
  path: string;
  /** 1-based line of `path` */
  line: number;
  /** the line, cut to a window around its first match */
  text: string;
  /** [start, end) of each match in `text` */
  marks: [number, number][];
}

export const SNIPPET_CHARS = 160;
const WORD = "[\\p{L}\\p{N}_]";

function fileRank(path: string): number {
  return path === "instruction.md" ? 0 : path.startsWith("solution/") || path === "solution.sh" ? 1 : 2;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One pattern per term, or null when the query has no words. */
export function termPatterns(q: string): RegExp[] | null {
  const terms = searchTerms(q);
  if (terms.length === 0) return null;
  return terms.map((t) => new RegExp(`(?<!${WORD})${t.split(" ").map(escapeRegExp).join(`[^\\p{L}\\p{N}_]+`)}(?!${WORD})`, "giu"));
}

/** The matches of `patterns` in `line`, sorted, overlaps merged; and how many patterns matched. */
function matchesIn(line: string, patterns: RegExp[]): { spans: [number, number][]; terms: number } {
  const spans: [number, number][] = [];
  let terms = 0;
  for (const p of patterns) {
    p.lastIndex = 0;
    let found = false;
    for (const m of line.matchAll(p)) {
      if (m[0].length === 0) continue;
      spans.push([m.index, m.index + m[0].length]);
      found = true;
    }
    if (found) terms++;
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  return { spans: merged, terms };
}

/** `line` cut to `SNIPPET_CHARS` around its first match, with the marks moved along. */
function cutAround(line: string, spans: [number, number][]): { text: string; marks: [number, number][] } {
  const first = spans[0]?.[0] ?? 0;
  const lead = line.length - line.trimStart().length;
  let start = Math.max(lead, first - 40);
  if (line.length - start < SNIPPET_CHARS) start = Math.max(lead, line.length - SNIPPET_CHARS);
  start = Math.min(start, first);
  const end = Math.min(line.length, start + SNIPPET_CHARS);
  const marks = spans.filter(([s]) => s < end).map(([s, e]): [number, number] => [s - start, Math.min(e, end) - start]);
  return { text: line.slice(start, end).trimEnd(), marks };
}

/**
 * The best line for the search `q` among `files`: the first showing the most terms, instructions
 * before solutions before tests. Null when no line shows a term (a match the database found across
 * a line break, or through a word its parser splits another way).
 */
export function findSnippet(files: { path: string; text: string }[], q: string): Snippet | null {
  const patterns = termPatterns(q);
  if (!patterns) return null;
  const ordered = files.filter((f) => isSearchedFile(f.path)).sort((a, b) => fileRank(a.path) - fileRank(b.path) || (a.path < b.path ? -1 : 1));
  let best: { path: string; line: number; text: string; spans: [number, number][]; terms: number } | null = null;
  for (const f of ordered) {
    const lines = f.text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      const { spans, terms } = matchesIn(line, patterns);
      if (terms > (best?.terms ?? 0)) {
        best = { path: f.path, line: i + 1, text: line, spans, terms };
        if (terms === patterns.length) break;
      }
    }
    if (best && best.terms === patterns.length) break;
  }
  if (!best) return null;
  const { text, marks } = cutAround(best.text.replace(/\r$/, ""), best.spans);
  return { path: best.path, line: best.line, text, marks };
}
