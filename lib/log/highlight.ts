// Search matches laid over styled segments. Offsets count UTF-16 units of the visible text (the
// segments' concatenation), as the server's search reports them.
import type { AnsiSegment } from "./ansi";

export interface MatchRange {
  start: number;
  end: number;
  current: boolean;
}

export type MarkedSegment = AnsiSegment & { mark?: "match" | "current" };

/** Cut segments at match edges; empty and out-of-range matches are skipped, overlaps clipped. */
export function markSegments(segments: readonly AnsiSegment[], matches: readonly MatchRange[]): MarkedSegment[] {
  if (matches.length === 0) return segments.slice();
  const ranges = matches.filter((m) => m.end > m.start).sort((a, b) => a.start - b.start);
  const out: MarkedSegment[] = [];
  let r = 0;
  let pos = 0;
  for (const seg of segments) {
    const segEnd = pos + seg.text.length;
    let at = pos;
    while (at < segEnd) {
      while (r < ranges.length && (ranges[r]?.end ?? 0) <= at) r++;
      const range = ranges[r];
      if (!range || range.start >= segEnd) {
        out.push({ ...seg, text: seg.text.slice(at - pos) });
        break;
      }
      if (range.start > at) {
        out.push({ ...seg, text: seg.text.slice(at - pos, range.start - pos) });
        at = range.start;
      }
      const end = Math.min(range.end, segEnd);
      out.push({ ...seg, text: seg.text.slice(at - pos, end - pos), mark: range.current ? "current" : "match" });
      at = end;
    }
    pos = segEnd;
  }
  return out;
}

/**
 * Matches shrunk to their letters. The "first error" pattern matches the character on either side
 * of the word too (`(^|[^A-Za-z])error([^A-Za-z]|$)`); the highlight shows just the word.
 */
export function trimToLetters<M extends { start: number; end: number }>(matches: readonly M[], visible: string): M[] {
  const letter = (i: number) => /[A-Za-z]/.test(visible[i] ?? "");
  return matches.map((m) => {
    let { start, end } = m;
    while (start < end && !letter(start)) start++;
    while (end > start && !letter(end - 1)) end--;
    return start === m.start && end === m.end ? m : { ...m, start, end };
  });
}
