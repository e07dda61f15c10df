import { describe, expect, it } from "vitest";
import { parseLineHash, windowsFor, windowsToDrop } from "./windows";

describe("windowsFor", () => {
  it("covers the rows asked for, clamped to the log", () => {
    expect(windowsFor(0, 40, 700_000, 1000)).toEqual([0]);
    expect(windowsFor(990, 1010, 700_000, 1000)).toEqual([0, 1]);
    expect(windowsFor(-150, 60, 700_000, 1000)).toEqual([0]);
    expect(windowsFor(699_900, 700_150, 700_000, 1000)).toEqual([699]);
    expect(windowsFor(0, 10, 0, 1000)).toEqual([]);
  });
});

describe("windowsToDrop", () => {
  it("keeps windows on screen and the most recent idle ones", () => {
    const held = [
      { index: 0, updatedAt: 1, inUse: false },
      { index: 5, updatedAt: 5, inUse: true },
      { index: 7, updatedAt: 3, inUse: false },
      { index: 9, updatedAt: 4, inUse: false },
    ];
    expect(windowsToDrop(held, 1).sort()).toEqual([0, 7]);
    expect(windowsToDrop(held, 5)).toEqual([]);
  });
});

describe("parseLineHash", () => {
  it("reads #L<n> for a line the log has", () => {
    expect(parseLineHash("#L1234", 5000)).toBe(1234);
    expect(parseLineHash("#L1", 1)).toBe(1);
    for (const h of ["#L0", "#L5001", "#l12", "#L12-L20", "#L", "", "#L1e3", "#L12x"]) expect(parseLineHash(h, 5000)).toBeNull();
  });
});
