import { describe, expect, it } from "vitest";
import { COUNT_CAP, PHRASE_COUNT_CAP, WORD_COUNT_CAP, countCap, formatTotal, isPhraseSearch, totalFromCappedCount, totalFromPage } from "./total";

describe("task totals", () => {
  it("treats a quoted part or a multi-word token as a phrase, separate words not", () => {
    expect(isPhraseSearch(undefined)).toBe(false);
    expect(isPhraseSearch("sqlite3")).toBe(false);
    expect(isPhraseSearch("  --sqlite3-- ")).toBe(false);
    expect(isPhraseSearch("set -euo pipefail")).toBe(false);
    expect(isPhraseSearch('"set -euo pipefail"')).toBe(true);
    expect(isPhraseSearch("out-2.txt")).toBe(true);
    expect(countCap({})).toBe(COUNT_CAP);
    expect(countCap({ q: "crontab" })).toBe(WORD_COUNT_CAP);
    expect(countCap({ q: "--" })).toBe(COUNT_CAP); // no words: only an exact task id can match
    expect(countCap({ q: "set -e" })).toBe(WORD_COUNT_CAP);
    expect(countCap({ q: '"set -e"' })).toBe(PHRASE_COUNT_CAP);
    expect(countCap({ q: "a-b" }, { plain: 7, word: 5, phrase: 3 })).toBe(3);
    expect(countCap({ q: "a" }, { plain: 7, word: 5, phrase: 3 })).toBe(5);
    expect(countCap({}, { plain: 7, word: 5, phrase: 3 })).toBe(7);
  });

  it("takes the total from a page that ends the list", () => {
    expect(totalFromPage(0, 0, 50)).toEqual({ total: 0, isEstimate: false });
    expect(totalFromPage(0, 12, 50)).toEqual({ total: 12, isEstimate: false });
    expect(totalFromPage(100, 50, 50)).toEqual({ total: 150, isEstimate: false });
    expect(totalFromPage(100, 51, 50)).toBeNull(); // more rows follow: count
    expect(totalFromPage(100, 0, 50)).toBeNull(); // past the end: the page says nothing
  });

  it("is exact up to the cap and a lower bound above it", () => {
    expect(totalFromCappedCount(0, 1000)).toEqual({ total: 0, isEstimate: false });
    expect(totalFromCappedCount(1000, 1000)).toEqual({ total: 1000, isEstimate: false });
    expect(totalFromCappedCount(1001, 1000)).toEqual({ total: 1000, isEstimate: true });
    // A page beyond the cap never reports fewer rows than it has already proven to exist.
    expect(totalFromCappedCount(1001, 1000, 2051)).toEqual({ total: 2051, isEstimate: true });
  });

  it("formats a lower bound with a plus", () => {
    expect(formatTotal(37484, false)).toBe("37,484");
    expect(formatTotal(1000, true)).toBe("1,000+");
    expect(formatTotal(5, undefined)).toBe("5");
  });
});
