import { describe, expect, it } from "vitest";
import { isoAt, runEpoch } from "./clock";
import { Rng } from "./prng";

describe("isoAt", () => {
  it("matches Date#toISOString", () => {
    const rng = new Rng(5);
    const base = runEpoch(1);
    for (let i = 0; i < 5000; i++) {
      const ms = base + Math.floor(rng.next() * 200 * 86_400_000);
      expect(isoAt(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
