// Solver results per accepted task, shaped like the published run: mean pass@4 0.90 at round 1
// falling to 0.025 at round 15, mean partial credit 0.970 → 0.170.
import type { Rng } from "./prng";

export const SOLVER_MODEL = "claude-opus-4-1";
export const K = 4;
export const N = 8;
/** Beta concentration of per-task success probabilities around the round mean. */
const KAPPA = 2.5;

/** Unbiased pass@k from n samples with c successes: 1 - C(n-c, k) / C(n, k). */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - k / i;
  return 1 - prod;
}

/** Target mean pass@4 for a round: log-linear from 0.90 (round 1) to 0.025 (last round). */
export function targetPassAtK(round: number, rounds: number): number {
  if (round <= 0) return 0.95;
  const t = rounds <= 1 ? 0 : (round - 1) / (rounds - 1);
  return Math.exp(Math.log(0.9) + t * (Math.log(0.025) - Math.log(0.9)));
}

/** Target mean partial credit: linear from 0.970 to 0.170. */
export function targetMeanReward(round: number, rounds: number): number {
  if (round <= 0) return 0.985;
  const t = rounds <= 1 ? 0 : (round - 1) / (rounds - 1);
  return 0.97 + t * (0.17 - 0.97);
}

/** E[1 - (1-p)^k] for p ~ Beta(κm, κ(1-m)), in closed form. */
function expectedPassAtK(m: number): number {
  const a = KAPPA * m;
  const b = KAPPA * (1 - m);
  let prod = 1;
  for (let i = 0; i < K; i++) prod *= (b + i) / (a + b + i);
  return 1 - prod;
}

/** The Beta mean whose expected pass@k hits the target (bisection; the map is monotone). */
export function meanForTarget(target: number): number {
  let lo = 1e-6;
  let hi = 1 - 1e-6;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (expectedPassAtK(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface EvalRecord {
  model: string;
  k: number;
  n: number;
  successes: number;
  mean_reward: number;
}

export class Solver {
  private readonly means = new Map<number, { m: number; partial: number }>();

  constructor(private readonly rounds: number) {}

  private params(round: number) {
    const hit = this.means.get(round);
    if (hit) return hit;
    const m = meanForTarget(targetPassAtK(round, this.rounds));
    // Failed samples earn partial credit so the mean reward lands on its target.
    const partial = Math.min(0.98, Math.max(0.02, (targetMeanReward(round, this.rounds) - m) / (1 - m)));
    const v = { m, partial };
    this.means.set(round, v);
    return v;
  }

  evaluate(rng: Rng, round: number): EvalRecord {
    const { m, partial } = this.params(round);
    const p = rng.beta(KAPPA * m, KAPPA * (1 - m));
    let successes = 0;
    let reward = 0;
    for (let i = 0; i < N; i++) {
      if (rng.next() < p) {
        successes++;
        reward += 1;
      } else {
        // Fraction of tests a failed attempt still passes.
        reward += rng.beta(4 * partial + 0.05, 4 * (1 - partial) + 0.05);
      }
    }
    return { model: SOLVER_MODEL, k: K, n: N, successes, mean_reward: Math.round((reward / N) * 1000) / 1000 };
  }
}
