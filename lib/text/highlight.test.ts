import { describe, expect, it } from "vitest";
import { highlightCode, MAX_HIGHLIGHT_LINES } from "./highlight";
import { MAX_LINE_CHARS } from "./lines";
import { TONE_ELIDED, TONES } from "./tones";

const text = (line: readonly (readonly [number, string])[] | undefined) => (line ?? []).map(([, t]) => t).join("");

describe("highlightCode", () => {
  it("returns palette-indexed tokens that reassemble the source exactly", async () => {
    const src = "#!/bin/bash\n# build it\nset -euo pipefail\necho \"hi $USER\" | tee out.txt\n";
    const out = await highlightCode(src, "bash");
    expect(out.lines).toHaveLength(4);
    expect(out.lines.map(text)).toEqual(src.split("\n").slice(0, 4));
    const tones = new Set(out.lines.flat().map(([tone]) => TONES[tone]));
    expect(tones.has("comment")).toBe(true);
    expect(tones.has("string")).toBe(true);
  });

  it("keeps a trailing carriage return that the grammar would swallow", async () => {
    const out = await highlightCode("echo a\r\necho b\r\n", "bash");
    expect(out.lines.map(text)).toEqual(["echo a\r", "echo b\r"]);
  });

  it("shows files without a grammar plain", async () => {
    const out = await highlightCode("a,b\n1,2", null);
    expect(out.highlightedLines).toBe(0);
    expect(out.lines).toEqual([[[0, "a,b"]], [[0, "1,2"]]]);
  });

  it("highlights only the head of a very large file and clips overlong lines", async () => {
    const big = Array.from({ length: MAX_HIGHLIGHT_LINES + 50 }, (_, i) => `x=${i}`).join("\n");
    const out = await highlightCode(`${big}\n${"y".repeat(MAX_LINE_CHARS + 10)}`, "bash");
    expect(out.highlightedLines).toBe(MAX_HIGHLIGHT_LINES);
    expect(out.lines).toHaveLength(MAX_HIGHLIGHT_LINES + 51);
    const last = out.lines[out.lines.length - 1] ?? [];
    expect(last[last.length - 1]?.[0]).toBe(TONE_ELIDED);
    expect(out.clippedLines).toBe(1);
  });
});
