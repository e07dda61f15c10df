import { describe, expect, it } from "vitest";
import { passAtK } from "./pass-at-k";

describe("passAtK", () => {
  it("matches hand-computed values of 1 - C(n-c,k)/C(n,k)", () => {
    // C(7,4)/C(10,4) = 35/210
    expect(passAtK(10, 3, 4)).toBeCloseTo(1 - 35 / 210, 12);
    // C(3,2)/C(5,2) = 3/10
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    // k = 1 is the success rate
    expect(passAtK(8, 3, 1)).toBeCloseTo(3 / 8, 12);
    // C(90,5)/C(100,5) = 43949268/75287520
    expect(passAtK(100, 10, 5)).toBeCloseTo(1 - 43949268 / 75287520, 12);
  });

  it("is 0 without successes and 1 when every draw must contain one", () => {
    expect(passAtK(10, 0, 5)).toBe(0);
    expect(passAtK(10, 10, 5)).toBe(1);
    expect(passAtK(10, 7, 4)).toBe(1);
    expect(passAtK(4, 1, 4)).toBe(1);
  });

  it("stays finite where binomials would overflow", () => {
    const value = passAtK(2000, 1, 1000);
    expect(value).toBeCloseTo(0.5, 12);
  });

  it("is null for inputs that describe no evaluation", () => {
    expect(passAtK(3, 1, 5)).toBeNull();
    expect(passAtK(0, 0, 0)).toBeNull();
    expect(passAtK(-1, 0, 1)).toBeNull();
    expect(passAtK(5, 6, 1)).toBeNull();
    expect(passAtK(5, -1, 1)).toBeNull();
    expect(passAtK(5, 1, 0)).toBeNull();
    expect(passAtK(5.5, 1, 1)).toBeNull();
  });
});
