import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LINE_CAP } from "@/lib/log/lines";
import { countLines } from "./content";
import { CHUNK_MAX_CHARS, CHUNK_MAX_LINES, cutLogChunks } from "./log-chunks";

/** The lines a reader gets back from the chunks (clipped lines as stored). */
function linesOf(text: string): string[] {
  return cutLogChunks(text).flatMap((c) => c.content.split("\n"));
}

function expected(text: string): string[] {
  if (text === "") return [];
  const lines = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
  return lines.map((l) => l.slice(0, LINE_CAP));
}

describe("cutLogChunks", () => {
  it("gives back every line, in order, as many as countLines counts", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }).map((s) => s.replaceAll("\n", "")), { maxLength: 3000 }), fc.boolean(), (lines, trailing) => {
        const text = lines.join("\n") + (trailing && lines.length > 0 ? "\n" : "");
        const chunks = cutLogChunks(text);
        expect(linesOf(text)).toEqual(expected(text));
        expect(chunks.reduce((n, c) => n + c.lineCount, 0)).toBe(countLines(text));
        let next = 0;
        for (const c of chunks) {
          expect(c.firstLine).toBe(next);
          expect(c.lineCount).toBeLessThanOrEqual(CHUNK_MAX_LINES);
          next += c.lineCount;
        }
      }),
      { numRuns: 60 },
    );
  });

  it("keeps chunks near the character cap and clips giant lines, recording their length", () => {
    const long = "x".repeat(3 * LINE_CAP);
    const text = ["a", long, "b", "y".repeat(CHUNK_MAX_CHARS), "c"].join("\n") + "\n";
    const chunks = cutLogChunks(text);
    expect(linesOf(text)).toEqual(["a", "x".repeat(LINE_CAP), "b", "y".repeat(LINE_CAP), "c"]);
    const clipped = chunks.flatMap((c) => (c.clipped ?? []).map(([at, len]) => [c.firstLine + at, len]));
    expect(clipped).toEqual([
      [1, 3 * LINE_CAP],
      [3, CHUNK_MAX_CHARS],
    ]);
  });

  it("cuts a 10 MB single line into one small chunk", () => {
    const chunks = cutLogChunks("z".repeat(10 * 1024 * 1024));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.content.length).toBe(LINE_CAP);
    expect(chunks[0]?.clipped).toEqual([[0, 10 * 1024 * 1024]]);
  });

  it("never splits a surrogate pair when clipping", () => {
    const text = "a".repeat(LINE_CAP - 1) + "😀".repeat(10);
    const [chunk] = cutLogChunks(text);
    expect(chunk?.content).toBe("a".repeat(LINE_CAP - 1));
    expect(chunk?.content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("an empty log has no chunks; a lone newline is one empty line", () => {
    expect(cutLogChunks("")).toEqual([]);
    expect(linesOf("\n")).toEqual([""]);
  });
});
