import { describe, expect, it } from "vitest";
import { pickThread } from "./threads";

describe("pickThread", () => {
  it("keeps a job with the thread it prefers until that thread is well behind", () => {
    expect(pickThread([10, 3], 0)).toBe(0);
    expect(pickThread([19, 3], 0)).toBe(0);
    expect(pickThread([20, 3], 0)).toBe(1);
    expect(pickThread([20, 3], 0, 32)).toBe(0);
    expect(pickThread([0, 40, 2], 1)).toBe(0);
  });

  it("takes the least busy thread without a preference, or with one out of range", () => {
    expect(pickThread([5, 2, 9])).toBe(1);
    expect(pickThread([5, 2, 9], 7)).toBe(1);
    expect(pickThread([4, 4])).toBe(0);
  });
});
