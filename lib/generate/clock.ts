// Timestamps derived from the run seed, never from the wall clock, so runs are reproducible.

/** 2025-06-02T00:00:00Z plus up to ~three months chosen by the seed. */
export function runEpoch(seed: number): number {
  return Date.UTC(2025, 5, 2) + ((seed >>> 0) % 97) * 86_400_000;
}

const DAY = 86_400_000;
let cachedDay = Number.NaN;
let cachedPrefix = "";

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** Same output as `new Date(ms).toISOString()`; the date part is cached because a run writes
 * millions of timestamps that mostly fall on the same few days. */
export function isoAt(ms: number): string {
  const day = Math.floor(ms / DAY);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = new Date(day * DAY).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  return `${cachedPrefix}${two(h)}:${two(m)}:${two(s)}.${three(Math.floor(rest - s * 1000))}Z`;
}
