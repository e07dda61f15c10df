import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { intraLine, pairRows, type Segment } from "./intraline";
import { diffText } from "./text";

const join = (segments: Segment[]) => segments.map((s) => s.text).join("");
const changed = (segments: Segment[]) => segments.filter((s) => s.changed).map((s) => s.text);

describe("intraLine", () => {
  it("marks the changed words of a long line", () => {
    const r = intraLine("tar czf /app/backup/archive.tgz -C /app backup", "tar cjf /app/backup/archive.tbz -C /app backup");
    expect(changed(r.old)).toEqual(["czf", "tgz"]);
    expect(changed(r.new)).toEqual(["cjf", "tbz"]);
    expect(r.old[0]).toEqual({ text: "tar ", changed: false });
    expect(r.similarity).toBeGreaterThan(0.8);
  });

  it("compares short lines character by character, keeping graphemes whole", () => {
    const r = intraLine("cat a.txt", "cut a.txt");
    expect(changed(r.old)).toEqual(["a"]);
    expect(changed(r.new)).toEqual(["u"]);
    const emoji = intraLine("x 👍🏽 y", "x 👍🏿 y");
    expect(changed(emoji.old)).toEqual(["👍🏽"]);
    expect(changed(emoji.new)).toEqual(["👍🏿"]);
  });

  it("shows an inserted zero-width or bidi character as a change", () => {
    const r = intraLine("if user == admin", "if user ==\u202e admin");
    expect(changed(r.old)).toEqual([]);
    expect(changed(r.new).join("")).toContain("\u202e");
  });

  it("returns one unchanged segment for equal lines, nothing for empty ones", () => {
    expect(intraLine("same\t", "same\t")).toEqual({ old: [{ text: "same\t", changed: false }], new: [{ text: "same\t", changed: false }], similarity: 1 });
    expect(intraLine("", "")).toEqual({ old: [], new: [], similarity: 1 });
    expect(intraLine("", "new")).toEqual({ old: [], new: [{ text: "new", changed: true }], similarity: 0 });
  });

  it("falls back to the common prefix and suffix for very long lines", () => {
    const a = `${"x".repeat(8000)}A${"y".repeat(8000)}`;
    const b = `${"x".repeat(8000)}B${"y".repeat(8000)}`;
    const r = intraLine(a, b);
    expect(changed(r.old)).toEqual(["A"]);
    expect(changed(r.new)).toEqual(["B"]);
    // never splitting a surrogate pair
    const s = intraLine(`${"a".repeat(6000)}😀`, `${"a".repeat(6000)}😃`);
    expect(changed(s.old)).toEqual(["😀"]);
  });

  it("segments always join back to each line exactly", () => {
    const str = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "-", "\u200b", "\u202e", "😀", "é", "e\u0301", "\r"), maxLength: 80 }),
    );
    fc.assert(
      fc.property(str, str, (a, b) => {
        const r = intraLine(a, b);
        expect(join(r.old)).toBe(a);
        expect(join(r.new)).toBe(b);
        expect(r.old.every((s) => s.text !== "")).toBe(true);
        // the unchanged parts are the same text on both sides
        expect(r.old.filter((s) => !s.changed).map((s) => s.text).join("")).toBe(r.new.filter((s) => !s.changed).map((s) => s.text).join(""));
        expect(r.similarity).toBeGreaterThanOrEqual(0);
        expect(r.similarity).toBeLessThanOrEqual(1);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("pairRows", () => {
  it("pairs deletions with additions and leaves the rest one-sided", () => {
    const d = diffText("keep\nold1\nold2\nold3\nmid\ngone\n", "keep\nnew1\nnew2\nmid\nfresh\nextra\n", { context: Infinity });
    const rows = pairRows(d.hunks[0]!).map((r) => [r.left?.text ?? null, r.right?.text ?? null]);
    expect(rows).toEqual([
      ["keep", "keep"],
      ["old1", "new1"],
      ["old2", "new2"],
      ["old3", null],
      ["mid", "mid"],
      ["gone", "fresh"],
      [null, "extra"],
    ]);
  });

  it("keeps every line exactly once on its side", () => {
    const lines = fc.array(fc.constantFrom("a\n", "b\n", "c\n", "d\r\n"), { maxLength: 20 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const d = diffText(a.join(""), b.join(""), { context: 2 });
        for (const hunk of d.hunks) {
          const rows = pairRows(hunk);
          expect(rows.flatMap((r) => (r.left ? [r.left] : []))).toEqual(hunk.lines.filter((l) => l.op !== "add"));
          expect(rows.flatMap((r) => (r.right ? [r.right] : []))).toEqual(hunk.lines.filter((l) => l.op !== "del"));
          for (const r of rows) expect(r.left ?? r.right).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});
