// How many seeds, and per round how many candidates with which fate, before any content exists.
import type { Rng } from "./prng";

export const REASONS = ["oracle_failed", "repair_exhausted", "shortcut_audit", "static_check", "duplicate", "contamination"] as const;
export type Reason = (typeof REASONS)[number];

/**
 * Mix of rejection reasons. Validation failures (oracle_failed, repair_exhausted) stay just under
 * half of all rejections so the validation pass rate lands near 76-78 % at a 52-57 % yield.
 */
const MIX: Record<Reason, number> = {
  oracle_failed: 0.42,
  repair_exhausted: 0.045,
  shortcut_audit: 0.405,
  static_check: 0.06,
  duplicate: 0.04,
  contamination: 0.03,
};

export interface Slot {
  accepted: boolean;
  reason: Reason | null;
}

export interface RoundPlan {
  round: number;
  accepted: number;
  slots: Slot[];
}

export interface RunPlan {
  seeds: number;
  rounds: RoundPlan[];
  candidates: number;
}

/** The published run had 639 seeds for 37,484 accepted tasks: one seed per ~58.7. */
export function seedCount(tasks: number): number {
  return Math.max(3, Math.min(tasks - 1, Math.round(tasks / 58.66)));
}

/** Splits `total` into counts proportional to `weights` (largest remainder). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (sum === 0 ? 0 : (total * w) / sum));
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i] = (out[i] ?? 0) + 1;
    left--;
  }
  return out;
}

export function planRun(tasks: number, rounds: number, rng: Rng): RunPlan {
  if (!Number.isInteger(tasks) || tasks < 4) throw new Error(`tasks must be an integer of at least 4, got ${tasks}`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds must be a positive integer, got ${rounds}`);
  const seeds = seedCount(tasks);
  const effective = Math.min(rounds, tasks - seeds);
  // Per-round budgets vary a little, as real rounds do.
  const perRound = apportion(tasks - seeds, Array.from({ length: effective }, () => rng.range(0.92, 1.08)));
  let candidates = seeds;
  const plans = perRound.map((accepted, i): RoundPlan => {
    const yieldRate = rng.range(0.52, 0.57);
    const total = Math.max(accepted, Math.round(accepted / yieldRate));
    const reasons = apportion(total - accepted, REASONS.map((r) => MIX[r]));
    const slots: Slot[] = Array.from({ length: accepted }, () => ({ accepted: true, reason: null }));
    REASONS.forEach((reason, k) => {
      for (let n = 0; n < (reasons[k] ?? 0); n++) slots.push({ accepted: false, reason });
    });
    candidates += total;
    return { round: i + 1, accepted, slots: rng.shuffle(slots) };
  });
  return { seeds, rounds: plans, candidates };
}
