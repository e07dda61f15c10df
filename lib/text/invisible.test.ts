import { describe, expect, it } from "vitest";
import { countInvisible, hasInvisible, splitInvisible } from "./invisible";

describe("splitInvisible", () => {
  it("passes ordinary text, tabs and non-ASCII letters through as one run", () => {
    expect(splitInvisible("echo\t'héllo wörld' ✓")).toEqual([{ kind: "text", text: "echo\t'héllo wörld' ✓" }]);
    expect(splitInvisible("")).toEqual([]);
  });

  it("marks bidi overrides and isolates (Trojan Source)", () => {
    const segs = splitInvisible("if x\u202E } \u2066y\u2069");
    const marks = segs.filter((s) => s.kind === "mark");
    expect(marks.map((m) => m.label)).toEqual(["RLO", "LRI", "PDI"]);
    expect(marks[0]).toMatchObject({ code: 0x202e, title: expect.stringContaining("U+202E") });
    expect(segs.filter((s) => s.kind === "text").map((s) => s.text).join("")).toBe("if x } y");
  });

  it("marks zero-width characters, BOM, CR, ESC and the stored NUL symbol", () => {
    const labels = splitInvisible("\uFEFFa\u200Bb\u200Cc\u200Dd\r\u001b[31m\u2400")
      .filter((s) => s.kind === "mark")
      .map((s) => s.label);
    expect(labels).toEqual(["BOM", "ZWSP", "ZWNJ", "ZWJ", "CR", "ESC", "NUL"]);
  });

  it("labels other C0 controls in caret notation and C1 controls by code point", () => {
    const labels = splitInvisible("\u0001\u001f\u0085").flatMap((s) => (s.kind === "mark" ? [s.label] : []));
    expect(labels).toEqual(["^A", "^_", "U+0085"]);
  });

  it("collapses repeats of one character into a counted marker", () => {
    expect(splitInvisible("a\u0000\u0000\u0000b")).toEqual([
      { kind: "text", text: "a" },
      { kind: "mark", code: 0, label: "NUL", title: "U+0000 NULL", count: 3 },
      { kind: "text", text: "b" },
    ]);
  });

  it("spells out ASCII hidden in Unicode tag characters", () => {
    const hidden = [..."rm -rf"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const segs = splitInvisible(`ok${hidden}.`);
    expect(segs[1]).toMatchObject({ kind: "mark", label: "TAG “rm -rf”", count: 6 });
    expect(segs[2]).toEqual({ kind: "text", text: "." });
  });

  it("counts and detects", () => {
    expect(hasInvisible("plain")).toBe(false);
    expect(hasInvisible("a\u202Eb")).toBe(true);
    expect(countInvisible("\u0000\u0000x\u200B")).toBe(3);
  });
});
