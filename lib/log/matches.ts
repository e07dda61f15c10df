// Stepping through search matches (sorted by line, then offset, as the server lists them).
import { formatInt } from "@/lib/format/number";

export interface LineMatch {
  line: number;
  start: number;
  end: number;
}

/** Index of the first match on `line` or later; `matches.length` when there is none. */
export function firstMatchFrom(matches: readonly LineMatch[], line: number): number {
  let lo = 0;
  let hi = matches.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((matches[mid]?.line ?? 0) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The next (or previous) match, wrapping around at either end like a browser's find. */
export function stepMatch(current: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}

/** Matches grouped by line, for the rows on screen to find theirs. */
export function matchesByLine<M extends LineMatch>(matches: readonly M[]): Map<number, M[]> {
  const byLine = new Map<number, M[]>();
  for (const m of matches) {
    const list = byLine.get(m.line);
    if (list) list.push(m);
    else byLine.set(m.line, [m]);
  }
  return byLine;
}

/** "3 of 1,204". */
export function matchCountText(current: number, total: number): string {
  if (total === 0) return "No matches";
  return current < 0 ? `${formatInt(total)} matches` : `${formatInt(current + 1)} of ${formatInt(total)}`;
}
