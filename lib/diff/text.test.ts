import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alignSequences } from "./align";
import { ApplyError, applyHunks, diffGaps, diffText, lineRaw, rawLines } from "./text";
import type { DiffLine, TextDiff } from "./types";

const ops = (d: TextDiff) => d.hunks.flatMap((h) => h.lines.map((l) => `${l.op[0]}${l.text}`));

/** Every structural promise of a diff, checked against both texts. */
function checkWellFormed(oldText: string, newText: string, d: TextDiff): void {
  const oldLines = rawLines(oldText);
  const newLines = rawLines(newText);
  expect(d.old_line_count).toBe(oldLines.length);
  expect(d.new_line_count).toBe(newLines.length);
  let added = 0;
  let removed = 0;
  let prevOldEnd = 1;
  for (const hunk of d.hunks) {
    expect(hunk.old_start).toBeGreaterThanOrEqual(prevOldEnd);
    let a = hunk.old_start;
    let b = hunk.new_start;
    for (const line of hunk.lines) {
      expect(line.text).not.toContain("\n");
      if (line.op === "add") {
        added++;
        expect(line).toMatchObject({ old_no: null, new_no: b });
        expect(lineRaw(line)).toBe(newLines[b - 1]);
        b++;
      } else if (line.op === "del") {
        removed++;
        expect(line).toMatchObject({ old_no: a, new_no: null });
        expect(lineRaw(line)).toBe(oldLines[a - 1]);
        a++;
      } else {
        expect(line).toMatchObject({ old_no: a, new_no: b });
        expect(lineRaw(line)).toBe(oldLines[a - 1]);
        expect(lineRaw(line)).toBe(newLines[b - 1]);
        a++;
        b++;
      }
    }
    expect(a - hunk.old_start).toBe(hunk.old_lines);
    expect(b - hunk.new_start).toBe(hunk.new_lines);
    expect(hunk.lines.some((l) => l.op !== "ctx")).toBe(true);
    prevOldEnd = a;
  }
  expect(added).toBe(d.added);
  expect(removed).toBe(d.removed);
}

describe("diffText", () => {
  it("reports identical texts as unchanged with no hunks", () => {
    for (const text of ["", "a\n", "a\r\nb", "x\n\n\ty\n"]) {
      expect(diffText(text, text)).toEqual({ status: "unchanged", hunks: [], added: 0, removed: 0, old_line_count: rawLines(text).length, new_line_count: rawLines(text).length });
    }
  });

  it("gives the API shape: 1-based numbers, null on the side a line is missing", () => {
    const d = diffText("one\ntwo\nthree\n", "one\n2\nthree\nfour\n");
    expect(d).toEqual({
      status: "modified",
      added: 2,
      removed: 1,
      old_line_count: 3,
      new_line_count: 4,
      hunks: [
        {
          old_start: 1,
          new_start: 1,
          old_lines: 3,
          new_lines: 4,
          lines: [
            { op: "ctx", old_no: 1, new_no: 1, text: "one" },
            { op: "del", old_no: 2, new_no: null, text: "two" },
            { op: "add", old_no: null, new_no: 2, text: "2" },
            { op: "ctx", old_no: 3, new_no: 3, text: "three" },
            { op: "add", old_no: null, new_no: 4, text: "four" },
          ],
        },
      ],
    });
  });

  it("treats a line that only changed its ending as a change, shown without the \\r and flagged", () => {
    const d = diffText("a\nb\nc\n", "a\nb\r\nc\n");
    expect(d.status).toBe("modified");
    expect(ops(d)).toEqual(["ca", "db", "ab", "cc"]);
    const [, del, add] = d.hunks[0]!.lines;
    expect(del).toEqual({ op: "del", old_no: 2, new_no: null, text: "b" });
    expect(add).toEqual({ op: "add", old_no: null, new_no: 2, text: "b", eol: "crlf" });
  });

  it("flags a missing newline at the end of the file and applies it exactly", () => {
    const d = diffText("a\nb\n", "a\nb");
    expect(ops(d)).toEqual(["ca", "db", "ab"]);
    expect(d.hunks[0]!.lines[2]).toEqual({ op: "add", old_no: null, new_no: 2, text: "b", eol: "none" });
    expect(applyHunks("a\nb\n", d)).toBe("a\nb");
    expect(applyHunks("a\nb", diffText("a\nb", "a\nb\n"))).toBe("a\nb\n");
  });

  it("keeps tabs, a lone \\r, and invisible characters in the text", () => {
    const d = diffText("x\n", "\tindent\there\nover\rwrite\n\u202eevil\u200b\n");
    expect(d.hunks[0]!.lines.map((l) => l.text)).toEqual(["x", "\tindent\there", "over\rwrite", "\u202eevil\u200b"]);
  });

  it("keeps a \\r that is not part of the final \\r\\n in the text", () => {
    const d = diffText("", "a\r\r\nb\r");
    expect(d.hunks[0]!.lines).toEqual([
      { op: "add", old_no: null, new_no: 1, text: "a\r", eol: "crlf" },
      { op: "add", old_no: null, new_no: 2, text: "b\r", eol: "none" },
    ]);
  });

  it("shows added and removed files whole, and an empty file as added with no lines", () => {
    const added = diffText(null, "a\nb\n");
    expect(added).toMatchObject({ status: "added", added: 2, removed: 0 });
    expect(added.hunks).toEqual([{ old_start: 1, new_start: 1, old_lines: 0, new_lines: 2, lines: expect.any(Array) }]);
    const removed = diffText("a\n", null);
    expect(removed).toMatchObject({ status: "removed", added: 0, removed: 1 });
    expect(diffText(null, "")).toMatchObject({ status: "added", hunks: [], added: 0 });
    expect(diffText("", "x")).toMatchObject({ status: "modified", added: 1 });
    expect(applyHunks(null, added)).toBe("a\nb\n");
    expect(applyHunks("a\n", removed)).toBeNull();
  });

  it("keeps `context` lines around changes and splits far-apart changes into hunks", () => {
    const old = Array.from({ length: 30 }, (_, i) => `l${i + 1}\n`).join("");
    const next = old.replace("l5\n", "L5\n").replace("l25\n", "L25\n");
    const d = diffText(old, next);
    expect(d.hunks.map((h) => [h.old_start, h.old_lines, h.new_start, h.new_lines])).toEqual([
      [2, 7, 2, 7],
      [22, 7, 22, 7],
    ]);
    expect(diffText(old, next, { context: 0 }).hunks.map((h) => h.lines.length)).toEqual([2, 2]);
    // Gaps of at most 2 × context unchanged lines join the hunks.
    expect(diffText(old, next, { context: 10 }).hunks).toHaveLength(1);
    const whole = diffText(old, next, { context: Infinity });
    expect(whole.hunks).toHaveLength(1);
    expect(whole.hunks[0]!.lines).toHaveLength(32);
    expect(diffGaps(d)).toEqual([
      { old_start: 1, new_start: 1, lines: 1 },
      { old_start: 9, new_start: 9, lines: 13 },
      { old_start: 29, new_start: 29, lines: 2 },
    ]);
    expect(diffGaps(whole)).toEqual([]);
  });

  it("rejects a bad context", () => {
    expect(() => diffText("a", "b", { context: -1 })).toThrow(RangeError);
    expect(() => diffText("a", "b", { context: 1.5 })).toThrow(RangeError);
  });

  it("finds a minimal diff for an insertion, a deletion and a move", () => {
    expect(ops(diffText("a\nb\nc\n", "a\nb\nx\nc\n"))).toEqual(["ca", "cb", "ax", "cc"]);
    expect(ops(diffText("a\nb\nc\n", "a\nc\n"))).toEqual(["ca", "db", "cc"]);
    const moved = diffText("1\n2\n3\n4\n", "2\n3\n4\n1\n");
    expect([moved.added, moved.removed]).toEqual([1, 1]);
  });

  it("puts deletions before additions within a change", () => {
    const d = diffText("a\nb\nc\nd\n", "a\nx\ny\nd\n");
    expect(ops(d)).toEqual(["ca", "db", "dc", "ax", "ay", "cd"]);
  });

  it("refuses to apply a diff to a text it was not made from", () => {
    const d = diffText("a\nb\nc\n", "a\nB\nc\n");
    expect(() => applyHunks("a\nX\nc\n", d)).toThrow(ApplyError);
    expect(() => applyHunks("a\nb\r\nc\n", d)).toThrow(ApplyError);
    const shifted = { ...d, hunks: [{ ...d.hunks[0]!, old_start: 9 }] };
    expect(() => applyHunks("a\nb\nc\n", shifted)).toThrow(ApplyError);
  });

  it("stays exact, if coarse, when the edit budget runs out", () => {
    const old = Array.from({ length: 3000 }, (_, i) => `${i % 3}\n`).join("");
    const next = Array.from({ length: 3000 }, (_, i) => `${(i * 7) % 5}\n`).join("");
    const d = diffText(old, next, { maxEditLength: 10 });
    expect(d.coarse).toBe(true);
    expect(applyHunks(old, d)).toBe(next);
    checkWellFormed(old, next, d);
    const fine = diffText(old, next);
    expect(applyHunks(old, fine)).toBe(next);
  });

  it("diffs and applies a 100k-line file pair exactly", () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const old = Array.from({ length: 100_000 }, (_, i) => `row ${i}\t${Math.floor(rnd() * 1e6)}${i % 97 === 0 ? "\r" : ""}\n`);
    const next = old.slice();
    let edits = 0;
    for (let k = 0; k < 1000; k++) {
      const j = Math.floor(rnd() * next.length);
      const r = rnd();
      if (r < 0.4) next[j] = `changed ${k}\n`;
      else if (r < 0.7) next.splice(j, 0, `inserted ${k}\n`);
      else next.splice(j, 1);
      edits++;
    }
    next[next.length - 1] = "last line without newline";
    const a = old.join("");
    const b = next.join("");
    const d = diffText(a, b);
    expect(d.status).toBe("modified");
    expect(d.coarse).toBeUndefined();
    expect(d.added + d.removed).toBeLessThanOrEqual(2 * edits + 2);
    expect(d.added).toBeGreaterThan(500);
    expect(applyHunks(a, d)).toBe(b);
    checkWellFormed(a, b, d);
    const whole = diffText(a, b, { context: Infinity });
    expect(whole.hunks[0]!.lines.length).toBe(d.removed + next.length);
    expect(applyHunks(a, whole)).toBe(b);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const lineContent = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("", "a", "b", "c", "\t", "a\tb", "  x", "}", "é", "日本", "😀", "\u202e", "\u200b", "x\u200dy", "\r", "a\rb", "\ufeff") },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }).map((s) => s.replace(/\n/g, "")) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 4 }).map((s) => s.replace(/\n/g, "")) },
);
const line = fc.tuple(lineContent, fc.constantFrom("\n", "\n", "\r\n"));
const text = fc
  .tuple(fc.array(line, { maxLength: 30 }), fc.boolean())
  .map(([lines, dropLast]) => {
    const joined = lines.map(([c, e]) => c + e).join("");
    // Drop the final line ending: "no newline at end of file".
    return dropLast && joined.endsWith("\n") ? joined.slice(0, joined.endsWith("\r\n") ? -2 : -1) : joined;
  });

/** A text and an edited copy of it, so that diffs have common lines to find. */
const edited = text.chain((a) =>
  fc
    .array(fc.tuple(fc.nat(), fc.constantFrom("del", "ins", "eol", "swap"), line), { maxLength: 8 })
    .map((edits) => {
      const lines = rawLines(a);
      for (const [at, kind, [content, ending]] of edits) {
        const i = lines.length === 0 ? 0 : at % lines.length;
        if (kind === "ins" || lines.length === 0) lines.splice(i, 0, content + ending);
        else if (kind === "del") lines.splice(i, 1);
        else if (kind === "eol") lines[i] = lines[i]!.endsWith("\r\n") ? lines[i]!.slice(0, -2) + "\n" : lines[i]!.replace(/\n?$/, "\r\n");
        else lines.splice(i, 1, content + ending);
      }
      // Only the last line may lack a newline.
      const b = lines.map((l, k) => (k < lines.length - 1 && !l.endsWith("\n") ? `${l}\n` : l)).join("");
      return [a, b] as const;
    }),
);
const pair = fc.oneof(edited, fc.tuple(text, text));
const context = fc.constantFrom(0, 1, 3, Infinity);

describe("diffText properties", () => {
  it("diffing A → B and applying the result to A gives exactly B", () => {
    fc.assert(
      fc.property(pair, context, ([a, b], ctx) => {
        const d = diffText(a, b, { context: ctx });
        expect(applyHunks(a, d)).toBe(b);
        expect(d.status).toBe(a === b ? "unchanged" : "modified");
        if (a === b) expect(d.hunks).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("every line is numbered, placed and counted right, with the text of its side", () => {
    fc.assert(
      fc.property(pair, context, ([a, b], ctx) => {
        checkWellFormed(a, b, diffText(a, b, { context: ctx }));
      }),
      { numRuns: 500 },
    );
  });

  it("hunks and gaps together cover every old line once", () => {
    fc.assert(
      fc.property(pair, context, ([a, b], ctx) => {
        const d = diffText(a, b, { context: ctx });
        if (d.status !== "modified") return;
        const covered: number[] = [];
        for (const gap of diffGaps(d)) for (let k = 0; k < gap.lines; k++) covered.push(gap.old_start + k);
        for (const hunk of d.hunks) for (const l of hunk.lines) if (l.old_no !== null) covered.push(l.old_no);
        covered.sort((x, y) => x - y);
        expect(covered).toEqual(Array.from({ length: d.old_line_count }, (_, k) => k + 1));
      }),
      { numRuns: 300 },
    );
  });

  it("stays exact when the edit budget forces the coarse fallback", () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(applyHunks(a, diffText(a, b, { maxEditLength: 1 }))).toBe(b);
      }),
      { numRuns: 300 },
    );
  });

  it("added and removed files apply from and to nothing", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(applyHunks(null, diffText(null, t))).toBe(t);
        expect(applyHunks(t, diffText(t, null))).toBeNull();
        expect(diffText(null, t).added).toBe(rawLines(t).length);
      }),
      { numRuns: 200 },
    );
  });

  it("the aligner's script reproduces both sequences, on long inputs with anchors too", () => {
    const seq = fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 3000 });
    fc.assert(
      fc.property(seq, seq, fc.integer({ min: 1, max: 50 }), (xs, ys, budget) => {
        const a = Int32Array.from(xs);
        const b = Int32Array.from([...xs.slice(0, xs.length >> 1), ...ys, ...xs.slice(xs.length >> 1)]);
        const script = alignSequences(a, b, budget);
        const oldSeq: number[] = [];
        const newSeq: number[] = [];
        let i = 0;
        let j = 0;
        for (const [k, op] of script.ops.entries()) {
          const n = script.counts[k]!;
          expect(n).toBeGreaterThan(0);
          for (let c = 0; c < n; c++) {
            if (op === 0) {
              expect(a[i]).toBe(b[j]);
              oldSeq.push(a[i++]!);
              newSeq.push(b[j++]!);
            } else if (op === 1) oldSeq.push(a[i++]!);
            else newSeq.push(b[j++]!);
          }
        }
        expect(oldSeq).toEqual(Array.from(a));
        expect(newSeq).toEqual(Array.from(b));
      }),
      { numRuns: 60 },
    );
  });

  it("cuts large inputs at unique lines without losing minimality on sparse edits", () => {
    // Mostly unique lines, larger than the direct-Myers limit: the anchor path does the work.
    const a = Int32Array.from({ length: 5000 }, (_, i) => (i % 50 === 0 ? -1 : i)); // -1 repeats
    const edited = Array.from(a);
    edited.splice(4000, 3, 90_001, 90_002); // replace 3 lines by 2
    edited.splice(2500, 0, 90_003); // insert 1
    edited.splice(100, 1); // delete 1
    const moved = edited.splice(3000, 10);
    edited.splice(600, 0, ...moved); // move a block of 10
    const script = alignSequences(a, Int32Array.from(edited));
    const count = (op: number) => script.ops.reduce<number>((n, o, k) => (o === op ? n + script.counts[k]! : n), 0);
    expect(script.coarse).toBe(false);
    expect([count(1), count(2)]).toEqual([3 + 1 + 10, 2 + 1 + 10]);
  });

  it("the aligner's script reproduces sequences of mostly unique values (anchors) exactly", () => {
    const unique = fc.uniqueArray(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1500, maxLength: 3000 });
    fc.assert(
      fc.property(unique, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -5, max: 5 })), { maxLength: 40 }), (xs, moves) => {
        const ys = xs.slice();
        for (const [from, to, len] of moves) {
          const block = ys.splice(from % ys.length, Math.abs(len));
          ys.splice(to % (ys.length + 1), 0, ...(len < 0 ? block.map((v) => v + 2_000_000) : block));
        }
        const a = Int32Array.from(xs);
        const b = Int32Array.from(ys);
        const script = alignSequences(a, b);
        const rebuiltOld: number[] = [];
        const rebuiltNew: number[] = [];
        let i = 0;
        let j = 0;
        for (const [k, op] of script.ops.entries()) {
          for (let c = 0; c < script.counts[k]!; c++) {
            if (op === 0) expect(a[i]).toBe(b[j]);
            if (op !== 2) rebuiltOld.push(a[i++]!);
            if (op !== 1) rebuiltNew.push(b[j++]!);
          }
        }
        expect(rebuiltOld).toEqual(xs);
        expect(rebuiltNew).toEqual(ys);
      }),
      { numRuns: 40 },
    );
  });
});

describe("lineRaw", () => {
  it("inverts the line split", () => {
    const l = (text: string, eol?: DiffLine["eol"]) => lineRaw({ text, ...(eol ? { eol } : {}) });
    expect([l("a"), l("a", "crlf"), l("a", "none")]).toEqual(["a\n", "a\r\n", "a"]);
    expect(rawLines("a\r\nb\n\nc")).toEqual(["a\r\n", "b\n", "\n", "c"]);
    expect(rawLines("")).toEqual([]);
  });
});
