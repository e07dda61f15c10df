import { describe, expect, it } from "vitest";
import { LogSearch, LogSearchError, MAX_MATCHES } from "./search";

function search(lines: string[], q: string, regex = false, caseSensitive = false) {
  const s = new LogSearch({ q, regex, caseSensitive });
  s.scan(lines, 100);
  return s.result();
}

describe("LogSearch", () => {
  it("finds every occurrence with its line and offsets, case-insensitively by default", () => {
    expect(search(["an Error here", "error, error", "none"], "error")).toEqual({
      total: 3,
      matches: [
        { line: 100, start: 3, end: 8 },
        { line: 101, start: 0, end: 5 },
        { line: 101, start: 7, end: 12 },
      ],
      truncated: false,
    });
    expect(search(["an Error here", "error"], "Error", false, true).total).toBe(1);
  });

  it("takes the query literally unless asked for a regex", () => {
    expect(search(["a.c abc"], "a.c").total).toBe(1);
    expect(search(["a.c abc"], "a.c", true).total).toBe(2);
    expect(search(["x"], "^", true).total).toBe(0);
  });

  it("lists at most MAX_MATCHES but counts them all", () => {
    const r = search(Array.from({ length: MAX_MATCHES + 5 }, () => "hit"), "hit");
    expect(r.total).toBe(MAX_MATCHES + 5);
    expect(r.matches).toHaveLength(MAX_MATCHES);
    expect(r.truncated).toBe(true);
  });

  it("refuses a broken pattern and interrupts a catastrophic one", () => {
    expect(() => new LogSearch({ q: "(unclosed", regex: true, caseSensitive: false })).toThrow(LogSearchError);
    const s = new LogSearch({ q: "(a+)+$", regex: true, caseSensitive: false }, 200);
    expect(() => s.scan(["a".repeat(40) + "!"], 0)).toThrow(/took longer/);
  });
});
