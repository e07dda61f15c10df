import { describe, expect, it } from "vitest";
import { apportion, planRun, seedCount } from "./plan";
import { Rng } from "./prng";

describe("planRun", () => {
  it("uses one seed per ~58.7 accepted tasks, at least three", () => {
    expect(seedCount(37484)).toBe(639);
    expect(seedCount(300)).toBe(5);
    expect(seedCount(20)).toBe(3);
  });

  it("plans exactly the requested accepted tasks with a 52-57 % yield per round", () => {
    const plan = planRun(37484, 15, new Rng(1));
    const accepted = plan.seeds + plan.rounds.reduce((s, r) => s + r.slots.filter((x) => x.accepted).length, 0);
    expect(accepted).toBe(37484);
    for (const r of plan.rounds) {
      const y = r.accepted / r.slots.length;
      expect(y).toBeGreaterThan(0.51);
      expect(y).toBeLessThan(0.58);
      expect(r.slots.filter((s) => !s.accepted).every((s) => s.reason !== null)).toBe(true);
    }
    expect(plan.candidates - accepted).toBeGreaterThan(28000);
  });

  it("apportions exactly", () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(7, [0.5, 0.5]).reduce((a, b) => a + b, 0)).toBe(7);
  });

  it("rejects impossible sizes", () => {
    expect(() => planRun(2, 15, new Rng(1))).toThrow();
    expect(() => planRun(100, 0, new Rng(1))).toThrow();
  });
});
