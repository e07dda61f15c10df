import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markSegments, trimToLetters } from "./highlight";

describe("markSegments", () => {
  it("cuts styled segments at match edges and marks the current match", () => {
    const segs = [{ text: "FAILED", bold: true }, { text: " test_a" }];
    expect(
      markSegments(segs, [
        { start: 4, end: 8, current: false },
        { start: 9, end: 11, current: true },
      ]),
    ).toEqual([
      { text: "FAIL", bold: true },
      { text: "ED", bold: true, mark: "match" },
      { text: " t", mark: "match" },
      { text: "e" },
      { text: "st", mark: "current" },
      { text: "_a" },
    ]);
  });

  it("skips empty and out-of-range matches", () => {
    expect(markSegments([{ text: "abc" }], [{ start: 1, end: 1, current: true }, { start: 5, end: 9, current: false }])).toEqual([{ text: "abc" }]);
  });

  it("shrinks error-pattern matches to the word", () => {
    const visible = "x FAILED: y";
    expect(trimToLetters([{ start: 1, end: 9 }], visible)).toEqual([{ start: 2, end: 8 }]);
    expect(trimToLetters([{ start: 0, end: 1 }], " ")).toEqual([{ start: 1, end: 1 }]);
  });

  it("keeps the text intact (property)", () => {
    const input = fc.tuple(
      fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 6 }),
      fc.array(fc.tuple(fc.nat(30), fc.nat(6), fc.boolean()), { maxLength: 6 }),
    );
    fc.assert(
      fc.property(input, ([texts, ms]) => {
        const segs = texts.map((t) => ({ text: t }));
        const out = markSegments(segs, ms.map(([s, len, current]) => ({ start: s, end: s + len, current })));
        expect(out.map((s) => s.text).join("")).toBe(texts.join(""));
      }),
    );
  });
});
