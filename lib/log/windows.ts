// Which windows of a log to hold in memory. A 50 MB log is ~700 windows of 1,000 lines; the
// viewer keeps the ones on screen plus a few recently seen, so memory stays flat however far one scrolls.

/** Windows (of `size` lines) covering lines `first`..`last` inclusive, clamped to the log. */
export function windowsFor(first: number, last: number, total: number, size: number): number[] {
  if (total <= 0 || last < first) return [];
  const lo = Math.floor(Math.max(0, first) / size);
  const hi = Math.floor(Math.min(total - 1, Math.max(0, last)) / size);
  const out: number[] = [];
  for (let w = lo; w <= hi; w++) out.push(w);
  return out;
}

export interface HeldWindow {
  index: number;
  /** When it last arrived (ms); the oldest idle windows go first. */
  updatedAt: number;
  /** Shown right now (has an observer). */
  inUse: boolean;
}

/** Idle windows beyond the `keep` most recent: the ones to drop from the cache. */
export function windowsToDrop(held: readonly HeldWindow[], keep: number): number[] {
  return held
    .filter((w) => !w.inUse)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(keep)
    .map((w) => w.index);
}

/** `#L1234` → 1234 when the log has that line; anything else → null. */
export function parseLineHash(hash: string, total: number): number | null {
  const m = /^#L(\d{1,9})$/.exec(hash);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= total ? n : null;
}
