import { describe, expect, it } from "vitest";
import { cellSource, CONTEXT, expand, type Gap, lineColumns, NOTHING_EXPANDED, rowColumns, splitRows, unifiedRows } from "./display-rows";
import type { DiffFilePayload, DiffRowTuple } from "./types";
import { withView } from "./types";

/** A file of `before` unchanged lines, one changed line, `after` unchanged lines. */
function file(before: number, after: number): DiffFilePayload {
  const rows: DiffRowTuple[] = [];
  let n = 1;
  for (let i = 0; i < before; i++, n++) rows.push([0, n, n, 0]);
  rows.push([1, n, 0, 0], [2, 0, n, 0]);
  n++;
  for (let i = 0; i < after; i++, n++) rows.push([0, n, n, 0]);
  const lines = Array.from({ length: n - 1 }, (_, i) => [[0, `line ${i + 1}`] as const]);
  return { index: 0, path: "a.sh", status: "modified", added: 1, removed: 1, oldLineCount: n - 1, newLineCount: n - 1, language: "Shell", binary: false, coarse: false, rows, old: [...lines], new: [...lines] };
}

const gaps = (rows: { t: string }[]) => rows.filter((r): r is Gap => r.t === "gap");
const shown = (f: DiffFilePayload, rows: ReturnType<typeof unifiedRows>) =>
  rows.flatMap((r) => {
    const row = r.t === "line" ? f.rows[r.at] : undefined;
    return row ? [row[2] || row[1]] : [];
  });

describe("folded context", () => {
  it("folds long unchanged runs, keeping three lines next to each change", () => {
    const f = file(100, 50);
    const rows = unifiedRows(f, NOTHING_EXPANDED);
    const [top, bottom] = gaps(rows);
    expect(top).toMatchObject({ start: 0, count: 100 - CONTEXT, newNo: 1, up: true, down: false });
    expect(bottom).toMatchObject({ start: 102, count: 50 - CONTEXT, newNo: 102 + CONTEXT, up: false, down: true });
    expect(shown(f, rows)).toEqual([98, 99, 100, 101, 101, 102, 103, 104]);
  });

  it("reveals twenty lines a step from either end, then the rest", () => {
    const f = file(30, 120);
    // The run after the change starts at row 32 (30 unchanged, a deletion, an addition).
    let e = expand(NOTHING_EXPANDED, 32, "top");
    let after = gaps(unifiedRows(f, e)).find((g) => g.start === 32);
    expect(after).toMatchObject({ count: 120 - CONTEXT - 20, newNo: 32 + CONTEXT + 20 });
    e = expand(e, 32, "top");
    after = gaps(unifiedRows(f, e)).find((g) => g.start === 32);
    expect(after?.count).toBe(120 - CONTEXT - 40);
    // The run before the change grows from its bottom, up towards line 1.
    e = expand(e, 0, "bottom");
    const before = gaps(unifiedRows(f, e)).find((g) => g.start === 0);
    expect(before).toMatchObject({ count: 30 - CONTEXT - 20, newNo: 1 });
    e = expand(e, 0, "bottom");
    expect(gaps(unifiedRows(f, e)).some((g) => g.start === 0)).toBe(false);
    e = expand(e, 32, "all");
    expect(gaps(unifiedRows(f, e))).toEqual([]);
    expect(shown(f, unifiedRows(f, e))).toHaveLength(152);
  });

  it("never folds fewer than four lines: a step that leaves three shows them", () => {
    const f = file(26, 0);
    const e = expand(NOTHING_EXPANDED, 0, "bottom");
    expect(gaps(unifiedRows(f, e))).toEqual([]);
  });

  it("folds the same runs side by side", () => {
    const f = file(40, 40);
    const e = expand(NOTHING_EXPANDED, 42, "top");
    expect(gaps(splitRows(f, e)).map((g) => [g.start, g.count])).toEqual(gaps(unifiedRows(f, e)).map((g) => [g.start, g.count]));
  });
});

describe("cells", () => {
  it("are made for the rows drawn, with word marks where a deleted line faces its replacement", () => {
    const f = file(5, 5);
    f.old[5] = [[0, "echo one, and then a long tail of words: two"]];
    f.new[5] = [[0, "echo one, and then a long tail of words: three"]];
    const cell = cellSource(f);
    const del = cell(5);
    const add = cell(6);
    expect(del).toMatchObject({ op: 1, oldNo: 6, newNo: 0 });
    expect(del.segs.filter(([, , changed]) => changed).map(([, t]) => t)).toEqual(["two"]);
    expect(add.segs.filter(([, , changed]) => changed).map(([, t]) => t)).toEqual(["three"]);
    expect(cell(5)).toBe(del);
    const pairs = splitRows(f, NOTHING_EXPANDED).filter((r) => r.t === "pair");
    expect(pairs.find((r) => r.left === 5)).toMatchObject({ right: 6 });
    expect(pairs.find((r) => r.left === 4)).toMatchObject({ right: 4 });
  });
});

describe("columns", () => {
  it("counts a tab as a whole stop and gives up on anything beyond printable ASCII", () => {
    expect(lineColumns([[0, "echo "], [2, '"hi"']])).toBe(9);
    expect(lineColumns([[0, "\tx"]])).toBe(5);
    expect(lineColumns([[0, "caf\u00e9"]])).toBe(Infinity);
    expect(lineColumns([[0, "a\u200bb"]])).toBe(Infinity);
    expect(lineColumns(undefined)).toBe(0);
  });

  it("takes the wider side of a split row", () => {
    const f = file(2, 2);
    f.old[2] = [[0, "x".repeat(30)]];
    f.new[2] = [[0, "y".repeat(50)]];
    const pair = splitRows(f, NOTHING_EXPANDED).find((r) => r.t === "pair" && r.left === 2);
    expect(pair && rowColumns(f, pair)).toBe(50);
  });
});

describe("withView", () => {
  it("puts the split layout in an address and leaves unified out", () => {
    expect(withView("/tasks/5/diff?against=3", "split")).toBe("/tasks/5/diff?against=3&view=split");
    expect(withView("/tasks/5/diff?against=3&view=split&file=a%2Fb", "unified")).toBe("/tasks/5/diff?against=3&file=a%2Fb");
    expect(withView("/tasks/5/diff#f0-L3", "split")).toBe("/tasks/5/diff?view=split#f0-L3");
    expect(withView("/tasks/5/diff?view=split", "split")).toBe("/tasks/5/diff?view=split");
  });
});
