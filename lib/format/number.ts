// Number formatting with a fixed locale, so server and browser render the same string.
const INT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const ONE = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const DASH = "—";

export function formatInt(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? DASH : INT.format(n);
}

/** A median or mean of counts: integers stay integers, halves keep one decimal. */
export function formatStat(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return DASH;
  return Number.isInteger(n) ? INT.format(n) : ONE.format(n);
}

/** A share in 0..1 as a percentage; small non-zero shares keep a decimal (2.5 %, not 3 %). */
export function formatPct(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return DASH;
  const pct = share * 100;
  const digits = pct !== 0 && Math.abs(pct) < 10 && !Number.isInteger(pct) ? 1 : 0;
  return `${pct.toFixed(digits)}%`;
}

/** A reward or score in 0..1. */
export function formatScore(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? DASH : TWO.format(n);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${INT.format(n)} B`;
  if (n < 1024 * 1024) return `${ONE.format(n / 1024)} KB`;
  if (n < 1024 ** 3) return `${ONE.format(n / (1024 * 1024))} MB`;
  return `${ONE.format(n / 1024 ** 3)} GB`;
}

export function share(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}
