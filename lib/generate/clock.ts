// Timestamps derived from the run seed, never from the wall clock, so runs are reproducible.

/** 2025-06-02T00:00:00Z plus up to ~three months chosen by the seed. */
export function runEpoch(seed: number): number {
  return Date.UTC(2025, 5, 2) + ((seed >>> 0) % 97) * 86_400_000;
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
