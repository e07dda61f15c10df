// From a file's whole-file diff to the rows a view draws: unchanged runs folded behind "expand"
// rows, paired deleted/added lines marked word by word (lib/diff intraLine) on top of the syntax
// tokens. Rows only name row positions; a line's cell is made when a view draws it, so a
// virtualized 20,000-line diff does the work of the lines on screen. Browser-side.
import { intraLine, type Segment } from "@/lib/diff";
import type { CodeLine } from "@/lib/text/tones";
import type { DiffFilePayload } from "./types";

/** A token with its intra-line mark. */
export type Seg = readonly [tone: number, text: string, changed: boolean];

export interface LineCell {
  op: 0 | 1 | 2;
  oldNo: number;
  newNo: number;
  eol: 0 | 1 | 2;
  segs: Seg[];
  /** Position in the file's rows, for anchors. */
  at: number;
}

/**
 * Unchanged lines folded away. `start` names the run of unchanged rows the gap lies in (its key in
 * `Expansion`); `oldNo`/`newNo` are the first hidden line, `count` lines are hidden. `up`: lines
 * above the change below can be revealed; `down`: lines below the change above.
 */
export type Gap = { t: "gap"; key: string; start: number; count: number; oldNo: number; newNo: number; up: boolean; down: boolean };
/** `at`, `left`, `right`: row positions in the file's rows (see `CellSource`). */
export type UnifiedRow = { t: "line"; key: string; at: number } | Gap;
export type SplitRow = { t: "pair"; key: string; left: number | null; right: number | null } | Gap;

/** The cell of row position `at`, made on first use and kept. */
export type CellSource = (at: number) => LineCell;

export const CONTEXT = 3;
/** Fold a run only when it hides at least this many lines. */
const MIN_FOLD = 4;
/** Lines one "expand" step reveals. */
export const EXPAND_STEP = 20;

/**
 * Lines revealed in each folded run (by the run's first row position): from its top (below the
 * change above) and from its bottom (above the change below). `Infinity` reveals the whole run.
 */
export type Expansion = ReadonlyMap<number, { top: number; bottom: number }>;

export const NOTHING_EXPANDED: Expansion = new Map();

/** `expansion` with `more` lines of run `start` revealed on one side ("all": the whole run). */
export function expand(expansion: Expansion, start: number, side: "top" | "bottom" | "all", more = EXPAND_STEP): Expansion {
  const was = expansion.get(start) ?? { top: 0, bottom: 0 };
  const next = side === "all" ? { top: Infinity, bottom: 0 } : { ...was, [side]: was[side] + more };
  return new Map(expansion).set(start, next);
}
/** Skip word marks for a pair rewritten rather than edited. */
const MIN_SIMILARITY = 0.3;

const lineText = (line: CodeLine | undefined) => (line ?? []).map(([, t]) => t).join("");

/** Split tokens where the changed segments start and end. */
export function mergeMarks(tokens: CodeLine, segments: readonly Segment[] | null): Seg[] {
  if (!segments) return tokens.map(([tone, text]) => [tone, text, false] as const);
  const out: Seg[] = [];
  let si = 0;
  let left = segments[0]?.text.length ?? 0;
  for (const [tone, text] of tokens) {
    let rest = text;
    while (rest.length > 0) {
      while (left === 0 && si < segments.length - 1) left = segments[++si]?.text.length ?? 0;
      const changed = segments[si]?.changed ?? false;
      const take = left > 0 ? Math.min(left, rest.length) : rest.length;
      out.push([tone, rest.slice(0, take), changed]);
      rest = rest.slice(take);
      left = Math.max(0, left - take);
    }
  }
  return out;
}

/**
 * For each deleted or added row that faces a line on the other side (the i-th deletion of a run
 * and its i-th addition), that row's position; -1 otherwise. Runs of more than 2,000 pairs are
 * left unpaired: rewritten, not edited.
 */
function partners(file: DiffFilePayload): Int32Array {
  const rows = file.rows;
  const out = new Int32Array(rows.length).fill(-1);
  let i = 0;
  while (i < rows.length) {
    if (rows[i]?.[0] === 0) {
      i++;
      continue;
    }
    const firstDel = i;
    while (i < rows.length && rows[i]?.[0] === 1) i++;
    const firstAdd = i;
    while (i < rows.length && rows[i]?.[0] === 2) i++;
    const pairs = Math.min(firstAdd - firstDel, i - firstAdd);
    if (pairs > 2_000) continue;
    for (let k = 0; k < pairs; k++) {
      out[firstDel + k] = firstAdd + k;
      out[firstAdd + k] = firstDel + k;
    }
  }
  return out;
}

export function cellSource(file: DiffFilePayload): CellSource {
  const partner = partners(file);
  const marks = new Map<number, Segment[] | null>();
  const cells = new Map<number, LineCell>();
  const marksOf = (at: number): Segment[] | null => {
    const other = partner[at] ?? -1;
    if (other < 0) return null;
    const known = marks.get(at);
    if (known !== undefined) return known;
    const [del, add] = file.rows[at]?.[0] === 1 ? [at, other] : [other, at];
    const d = file.rows[del];
    const a = file.rows[add];
    const intra = d && a ? intraLine(lineText(file.old[d[1] - 1]), lineText(file.new[a[2] - 1])) : null;
    const similar = intra !== null && intra.similarity >= MIN_SIMILARITY;
    marks.set(del, similar ? intra.old : null);
    marks.set(add, similar ? intra.new : null);
    return marks.get(at) ?? null;
  };
  return (at) => {
    const known = cells.get(at);
    if (known) return known;
    const [op, oldNo, newNo, eol] = file.rows[at] ?? [0, 0, 0, 0];
    const tokens = op === 1 ? file.old[oldNo - 1] : file.new[newNo - 1];
    const made: LineCell = { op, oldNo, newNo, eol, at, segs: mergeMarks(tokens ?? [], marksOf(at)) };
    cells.set(at, made);
    return made;
  };
}

/** Row positions to show, with gaps where unchanged runs fold (as far as `expansion` leaves them). */
function layout(file: DiffFilePayload, expansion: Expansion): ({ at: number } | Gap)[] {
  const rows = file.rows;
  const out: ({ at: number } | Gap)[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]?.[0] !== 0) {
      out.push({ at: i++ });
      continue;
    }
    const start = i;
    while (i < rows.length && rows[i]?.[0] === 0) i++;
    const end = i;
    const opened = expansion.get(start) ?? { top: 0, bottom: 0 };
    const head = Math.min(end - start, (start === 0 ? 0 : CONTEXT) + opened.top);
    const tail = Math.min(end - start - head, (end === rows.length ? 0 : CONTEXT) + opened.bottom);
    const hidden = end - start - head - tail;
    if (hidden < MIN_FOLD) {
      for (let k = start; k < end; k++) out.push({ at: k });
      continue;
    }
    for (let k = start; k < start + head; k++) out.push({ at: k });
    const first = rows[start + head];
    out.push({
      t: "gap",
      key: `g${start}`,
      start,
      count: hidden,
      oldNo: first?.[1] ?? 0,
      newNo: first?.[2] ?? 0,
      up: end < rows.length,
      down: start > 0,
    });
    for (let k = end - tail; k < end; k++) out.push({ at: k });
  }
  return out;
}

export function unifiedRows(file: DiffFilePayload, expansion: Expansion): UnifiedRow[] {
  return layout(file, expansion).map((item) => ("t" in item ? item : { t: "line" as const, key: `r${item.at}`, at: item.at }));
}

export function splitRows(file: DiffFilePayload, expansion: Expansion): SplitRow[] {
  const items = layout(file, expansion);
  const op = (it: { at: number } | Gap | undefined) => (it && !("t" in it) ? (file.rows[it.at]?.[0] ?? 0) : -1);
  const out: SplitRow[] = [];
  let i = 0;
  while (i < items.length) {
    const item = items[i];
    if (!item) break;
    if ("t" in item) {
      out.push(item);
      i++;
      continue;
    }
    if (op(item) === 0) {
      out.push({ t: "pair", key: `p${item.at}`, left: item.at, right: item.at });
      i++;
      continue;
    }
    const dels: number[] = [];
    const adds: number[] = [];
    for (let it = items[i]; op(it) === 1 && it && !("t" in it); it = items[++i]) dels.push(it.at);
    for (let it = items[i]; op(it) === 2 && it && !("t" in it); it = items[++i]) adds.push(it.at);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const left = dels[k] ?? null;
      const right = adds[k] ?? null;
      out.push({ t: "pair", key: `p${left ?? right ?? k}-${k}`, left, right });
    }
  }
  return out;
}

/**
 * Columns a line fills in a monospace cell (a tab counts as a whole tab stop), or Infinity when it
 * holds anything that may be wider than one column (outside printable ASCII: markers, wide scripts).
 */
export function lineColumns(line: CodeLine | undefined): number {
  let columns = 0;
  for (const [, text] of line ?? []) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 9) columns += 4;
      else if (code < 0x20 || code > 0x7e) return Infinity;
      else columns++;
    }
  }
  return columns;
}

/** The wider side of a split row, in columns (0 for a gap). */
export function rowColumns(file: DiffFilePayload, row: SplitRow): number {
  if (row.t === "gap") return 0;
  const side = (at: number | null) => {
    const r = at === null ? undefined : file.rows[at];
    return r ? lineColumns(r[0] === 1 ? file.old[r[1] - 1] : file.new[r[2] - 1]) : 0;
  };
  return Math.max(side(row.left), side(row.right));
}

/** Anchor of a line: the new side's number, or the old one for a deleted line. */
export function lineAnchor(fileIndex: number, c: Pick<LineCell, "op" | "oldNo" | "newNo">): string {
  return c.op === 1 ? `f${fileIndex}-O${c.oldNo}` : `f${fileIndex}-L${c.newNo}`;
}

/** `#f2-L14` → file 2, new line 14; `#f2-O9` → old line 9. */
export function parseAnchor(hash: string): { file: number; side: "L" | "O"; no: number } | null {
  const m = /^#?f(\d+)-([LO])(\d+)$/.exec(hash);
  return m ? { file: Number(m[1]), side: m[2] === "O" ? "O" : "L", no: Number(m[3]) } : null;
}

/** The row position an anchor points at, or -1. */
export function rowOfAnchor(file: DiffFilePayload, side: "L" | "O", no: number): number {
  return file.rows.findIndex((r) => (side === "L" ? r[2] === no && r[0] !== 1 : r[1] === no && r[0] === 1));
}

/** The folded run that hides row position `at`, if any. */
export function gapHolding(file: DiffFilePayload, at: number): number | null {
  let start = at;
  if (file.rows[at]?.[0] !== 0) return null;
  while (start > 0 && file.rows[start - 1]?.[0] === 0) start--;
  return start;
}
