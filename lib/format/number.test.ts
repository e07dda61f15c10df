import { describe, expect, it } from "vitest";
import { formatBytes, formatInt, formatPct, formatScore, formatStat, share } from "./number";

describe("number formatting", () => {
  it("formats counts with grouping and a dash for missing values", () => {
    expect(formatInt(37484)).toBe("37,484");
    expect(formatInt(null)).toBe("—");
    expect(formatInt(Number.NaN)).toBe("—");
  });

  it("keeps medians of even-sized groups readable", () => {
    expect(formatStat(374)).toBe("374");
    expect(formatStat(51.5)).toBe("51.5");
  });

  it("formats shares as percentages, keeping a decimal for small ones", () => {
    expect(formatPct(0.9)).toBe("90%");
    expect(formatPct(0.025)).toBe("2.5%");
    expect(formatPct(0)).toBe("0%");
    expect(formatPct(1)).toBe("100%");
    expect(formatPct(undefined)).toBe("—");
  });

  it("formats scores, sizes and shares", () => {
    expect(formatScore(0.97)).toBe("0.97");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(9_216)).toBe("9.0 KB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MB");
    expect(formatBytes(1023 * 1024 * 1024)).toBe("1,023.0 MB");
    expect(formatBytes(2_223_025_045)).toBe("2.1 GB");
    expect(share(1, 4)).toBe(0.25);
    expect(share(1, 0)).toBeNull();
  });
});
