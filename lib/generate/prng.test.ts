import { describe, expect, it } from "vitest";
import { hashKey, Rng, WeightedPicker } from "./prng";

describe("Rng", () => {
  it("replays the same stream for the same seed and key", () => {
    const a = new Rng(42, "k");
    const b = new Rng(42, "k");
    expect(Array.from({ length: 50 }, () => a.nextU32())).toEqual(Array.from({ length: 50 }, () => b.nextU32()));
    expect(new Rng(42, "k").next()).not.toBe(new Rng(42, "other").next());
    expect(hashKey(1, "abc")).toBe(hashKey(1, "abc"));
  });

  it("draws integers inclusively and shuffles into a permutation", () => {
    const rng = new Rng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(rng.int(1, 6));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect(rng.shuffle(items).sort((x, y) => x - y)).toEqual(items);
    expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("samples Beta draws with the right mean", () => {
    const rng = new Rng(3);
    let sum = 0;
    for (let i = 0; i < 20000; i++) sum += rng.beta(2, 6);
    expect(sum / 20000).toBeCloseTo(0.25, 2);
  });

  it("picks proportionally to weights", () => {
    const picker = new WeightedPicker([1, 0, 3]);
    const rng = new Rng(9);
    const counts = [0, 0, 0];
    for (let i = 0; i < 40000; i++) {
      const k = picker.pick(rng);
      counts[k] = (counts[k] ?? 0) + 1;
    }
    expect(counts[1]).toBe(0);
    expect((counts[2] ?? 0) / (counts[0] ?? 1)).toBeGreaterThan(2.7);
    expect((counts[2] ?? 0) / (counts[0] ?? 1)).toBeLessThan(3.3);
  });
});
