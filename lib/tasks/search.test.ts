import { describe, expect, it } from "vitest";
import { needsPositions, searchTerms, searchWords } from "./search";

describe("search terms", () => {
  it("splits code words like the index does", () => {
    expect(searchWords("out-2.txt")).toBe("out 2 txt");
  });
  it("keeps quoted parts as phrases and every other token as its own term", () => {
    expect(searchTerms("sqlite3 crontab")).toEqual(["sqlite3", "crontab"]);
    expect(searchTerms('"set -euo pipefail" tar')).toEqual(["set euo pipefail", "tar"]);
    expect(searchTerms("/var/log/app.log")).toEqual(["var log app log"]);
    expect(searchTerms('unclosed "quote here')).toEqual(["unclosed", "quote", "here"]);
    expect(searchTerms('-- "" ---')).toEqual([]);
    expect(searchTerms("tar tar")).toEqual(["tar"]);
  });
  it("knows which terms are one word to the database's parser", () => {
    expect(needsPositions(["sqlite3", "crontab", "X11", "007"])).toBe(false);
    expect(needsPositions(["set euo pipefail"])).toBe(true);
    expect(needsPositions(["test_outputs"])).toBe(true); // `_` splits words
    expect(needsPositions(["1e5x"])).toBe(true); // a number, then a word
    expect(needsPositions(["café"])).toBe(true); // outside ASCII: left to positions
    expect(needsPositions([])).toBe(false);
  });
});
