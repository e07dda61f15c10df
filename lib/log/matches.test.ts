import { describe, expect, it } from "vitest";
import { firstMatchFrom, matchCountText, matchesByLine, stepMatch } from "./matches";

const m = (line: number, start = 0) => ({ line, start, end: start + 1 });

describe("search match stepping", () => {
  const matches = [m(3), m(3, 5), m(10), m(42)];

  it("finds the first match on or after a line", () => {
    expect(firstMatchFrom(matches, 0)).toBe(0);
    expect(firstMatchFrom(matches, 3)).toBe(0);
    expect(firstMatchFrom(matches, 4)).toBe(2);
    expect(firstMatchFrom(matches, 42)).toBe(3);
    expect(firstMatchFrom(matches, 43)).toBe(4);
    expect(firstMatchFrom([], 1)).toBe(0);
  });

  it("wraps around like a browser's find", () => {
    expect(stepMatch(3, 4, 1)).toBe(0);
    expect(stepMatch(0, 4, -1)).toBe(3);
    expect(stepMatch(-1, 4, 1)).toBe(0);
    expect(stepMatch(-1, 4, -1)).toBe(3);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });

  it("groups by line and counts as the toolbar says it", () => {
    expect(matchesByLine(matches).get(3)).toHaveLength(2);
    expect(matchCountText(2, 1204)).toBe("3 of 1,204");
    expect(matchCountText(-1, 12)).toBe("12 matches");
    expect(matchCountText(-1, 0)).toBe("No matches");
  });
});
