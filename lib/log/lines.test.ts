import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { displayLine, ERROR_PATTERN, stripEscapes, visibleLines } from "./lines";

describe("displayLine", () => {
  it("collapses a carriage-return progress bar to its last frame and drops a CRLF's CR", () => {
    expect(displayLine("  0%|   |\r 50%|#  |\r100%|###|")).toBe("100%|###|");
    expect(displayLine("done\r")).toBe("done");
    expect(displayLine("100%\r\x1b[K\r")).toBe("100%");
  });

  it("shows NUL and other control bytes as control pictures, keeps tab and ESC", () => {
    expect(displayLine("a\0b\x07c\x7f\td")).toBe("a\u2400b\u2407c\u2421\td");
    expect(displayLine("\x1b[31mred\x1b[0m")).toBe("\x1b[31mred\x1b[0m");
  });
});

describe("stripEscapes", () => {
  it("removes colours, cursor moves and OSC hyperlinks (keeping their text), marks a lone ESC", () => {
    expect(stripEscapes("\x1b[1;31mFAILED\x1b[0m x")).toBe("FAILED x");
    expect(stripEscapes("\x1b]8;;javascript:alert(1)\x07click\x1b]8;;\x07")).toBe("click");
    expect(stripEscapes("\x1b]8;;https://x.test\x1b\\site\x1b]8;;\x1b\\")).toBe("site");
    expect(stripEscapes("a\x1b")).toBe("a\u241b");
  });
});

describe("ERROR_PATTERN", () => {
  const re = new RegExp(ERROR_PATTERN, "i");
  it("finds failures but not words that merely contain the letters", () => {
    for (const s of ["FAILED tests/test_a.py::t", "Traceback (most recent call last):", "E   AssertionError: x", "error: no such file"]) expect(re.test(s)).toBe(true);
    for (const s of ["terrorism", "0 errored_out_name_x", "all passed"]) expect(re.test(s)).toBe(false);
  });
});

describe("visibleLines", () => {
  it("equals stripping each displayed line one by one, whatever the bytes", () => {
    const piece = fc.constantFrom("a", "b", " ", "\n", "\r", "\x1b", "[", "]", "8", ";", "m", "\x07", "\\", "\0", "\t", "31", "\u00e9");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
        const block = parts.join("");
        expect(visibleLines(block)).toEqual(block.split("\n").map((l) => stripEscapes(displayLine(l))));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("escapes next to control bytes", () => {
  it("keeps the BEL that ends an OSC sequence as part of it, and strips the sequence whole", () => {
    const line = displayLine("see \x1b]8;;javascript:alert(1)\x07click me\x1b]8;;\x07 now\x07");
    expect(line).toBe("see \x1b]8;;javascript:alert(1)\x07click me\x1b]8;;\x07 now\u2407");
    expect(stripEscapes(line)).toBe("see click me now\u2407");
  });

  it("strips character-set designations and two-byte escapes", () => {
    expect(stripEscapes("\x1b(Bplain\x1b7saved\x1b8\x1b=keypad\x1b>")).toBe("plainsavedkeypad");
  });
});
