import { describe, expect, it } from "vitest";
import { meanForTarget, passAtK, Solver, targetMeanReward, targetPassAtK } from "./evals";
import { Rng } from "./prng";

describe("solver results", () => {
  it("uses the unbiased pass@k estimator", () => {
    expect(passAtK(8, 0, 4)).toBe(0);
    expect(passAtK(8, 8, 4)).toBe(1);
    expect(passAtK(8, 1, 4)).toBeCloseTo(0.5, 10);
    expect(passAtK(8, 5, 4)).toBe(1);
  });

  it("targets the published curve: pass@4 0.90 → 0.025, partial credit 0.970 → 0.170", () => {
    expect(targetPassAtK(1, 15)).toBeCloseTo(0.9, 6);
    expect(targetPassAtK(15, 15)).toBeCloseTo(0.025, 6);
    expect(targetMeanReward(1, 15)).toBeCloseTo(0.97, 6);
    expect(targetMeanReward(15, 15)).toBeCloseTo(0.17, 6);
    for (let r = 2; r <= 15; r++) expect(targetPassAtK(r, 15)).toBeLessThan(targetPassAtK(r - 1, 15));
    expect(meanForTarget(0.9)).toBeGreaterThan(meanForTarget(0.5));
  });

  it("draws per-task results whose round means land on the targets", () => {
    const solver = new Solver(15);
    const rng = new Rng(1);
    for (const round of [1, 8, 15]) {
      let p = 0;
      let reward = 0;
      const n = 6000;
      for (let i = 0; i < n; i++) {
        const e = solver.evaluate(rng, round);
        expect(e.successes).toBeLessThanOrEqual(e.n);
        p += passAtK(e.n, e.successes, e.k);
        reward += e.mean_reward;
      }
      expect(p / n).toBeCloseTo(targetPassAtK(round, 15), 1);
      expect(reward / n).toBeCloseTo(targetMeanReward(round, 15), 1);
    }
  });
});
