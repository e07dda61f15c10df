import { createContext, memo, use } from "react";
import { formatInt } from "@/lib/format/number";
import { DiffCode } from "./diff-code";
import { type CellSource, EXPAND_STEP, type Gap, type LineCell, lineAnchor, type SplitRow, type UnifiedRow } from "./display-rows";

const ROW_BG = { 0: "", 1: "bg-bad-soft", 2: "bg-ok-soft" } as const;
const GUTTER_BG = { 0: "bg-surface", 1: "bg-bad-soft", 2: "bg-ok-soft" } as const;
const SIGN = { 0: " ", 1: "−", 2: "+" } as const;
const SIGN_CLASS = { 0: "text-faint", 1: "text-bad", 2: "text-ok" } as const;
const target =
  "scroll-mt-28 target:!bg-warn-soft target:shadow-[inset_3px_0_0_var(--warn)] aria-[current=location]:!bg-warn-soft aria-[current=location]:shadow-[inset_3px_0_0_var(--warn)]";

/**
 * The anchor the address names (`f2-L14`), or null. Its line is highlighted through this rather
 * than `:target` alone, which misses a line rendered after a client-side navigation.
 */
export const DiffTarget = createContext<string | null>(null);

/** A line number's column: 2.5rem, or wider where the file sets `--ln` (numbersWidth). */
const NUMBER_WIDTH = "w-[max(2.5rem,calc(var(--ln,4ch)_+_0.5rem))]";

/** Widens the line number columns of a file whose numbers have more than four digits. */
export function numbersWidth(lines: number): string {
  const digits = String(lines).length;
  return digits <= 4 ? "" : digits === 5 ? "[--ln:5ch]" : digits === 6 ? "[--ln:6ch]" : "[--ln:7ch]";
}

function LineNo({ href, no, label }: { href: string | null; no: number; label: string }) {
  if (no === 0) return <span className={`inline-block pr-2 text-right ${NUMBER_WIDTH}`} />;
  return (
    <a href={href ?? undefined} aria-label={`${label} ${no}`} className={`inline-block pr-2 text-right text-faint hover:text-accent hover:underline ${NUMBER_WIDTH}`}>
      {no}
    </a>
  );
}

export const UnifiedLine = memo(function UnifiedLine({ at, file, cell }: { at: number; file: number; cell: CellSource }) {
  const row = cell(at);
  const anchor = lineAnchor(file, row);
  const current = use(DiffTarget) === anchor;
  return (
    <div id={anchor} aria-current={current ? "location" : undefined} className={`flex min-h-5 min-w-max ${ROW_BG[row.op]} ${target}`}>
      <span className={`sticky left-0 z-[1] flex shrink-0 border-r border-line select-none ${GUTTER_BG[row.op]}`}>
        <LineNo href={row.op === 1 ? `#${anchor}` : null} no={row.oldNo} label="old line" />
        <LineNo href={row.op !== 1 ? `#${anchor}` : null} no={row.newNo} label="new line" />
      </span>
      <span aria-hidden="true" className={`w-5 shrink-0 text-center select-none ${SIGN_CLASS[row.op]}`}>
        {SIGN[row.op]}
      </span>
      <span className="pr-6 whitespace-pre">
        <DiffCode segs={row.segs} op={row.op} eol={row.eol} />
      </span>
    </div>
  );
});

function SplitCell({ c, file, side }: { c: LineCell | null; file: number; side: "left" | "right" }) {
  if (!c) return <div className="min-w-0 bg-surface-2/60 [background-image:repeating-linear-gradient(135deg,transparent_0_6px,color-mix(in_oklab,var(--line)_60%,transparent)_6px_7px)]" />;
  const no = side === "left" ? c.oldNo : c.newNo;
  const op = c.op;
  const anchor = lineAnchor(file, c);
  const owns = side === "right" || op === 1;
  const current = use(DiffTarget) === anchor && owns;
  return (
    <div id={owns ? anchor : undefined} aria-current={current ? "location" : undefined} className={`flex min-w-0 ${ROW_BG[op]} ${target}`}>
      <span className={`shrink-0 border-r border-line select-none ${GUTTER_BG[op]}`}>
        <LineNo href={`#${anchor}`} no={no} label={side === "left" ? "old line" : "new line"} />
      </span>
      <span aria-hidden="true" className={`w-5 shrink-0 text-center select-none ${SIGN_CLASS[op]}`}>
        {SIGN[op]}
      </span>
      <span className="min-w-0 pr-3 [overflow-wrap:anywhere] whitespace-pre-wrap">
        <DiffCode segs={c.segs} op={op} eol={c.eol} />
      </span>
    </div>
  );
}

export const SplitLine = memo(function SplitLine({ row, file, cell }: { row: Extract<SplitRow, { t: "pair" }>; file: number; cell: CellSource }) {
  // A context line appears on both sides: only the right cell carries the anchor.
  return (
    <div className="grid min-h-5 grid-cols-2 divide-x divide-line">
      <SplitCell c={row.left === null ? null : cell(row.left)} file={file} side="left" />
      <SplitCell c={row.right === null ? null : cell(row.right)} file={file} side="right" />
    </div>
  );
});

export type ExpandSide = "top" | "bottom" | "all";

const expandButton = "flex h-full items-center gap-1 rounded-sm px-1.5 text-accent hover:bg-accent-soft hover:underline focus-visible:outline-2 focus-visible:outline-accent";

/**
 * A folded run of unchanged lines: reveal a step of it from either end, or all of it. Each button
 * keeps its place (and so the keyboard focus) while the run shrinks.
 */
export function GapRow({ gap, onExpand }: { gap: Gap; onExpand: (start: number, side: ExpandSide) => void }) {
  const step = Math.min(EXPAND_STEP, gap.count);
  const last = gap.newNo + gap.count - 1;
  // A step that would show the whole run is the "all" button again.
  const partial = gap.count > EXPAND_STEP;
  return (
    <div role="group" aria-label={`${gap.count} unchanged lines hidden, ${gap.newNo}–${last}`} className="flex h-6 items-center border-y border-line/70 bg-info-soft/40 text-2xs text-muted">
      <span className="sticky left-0 flex h-full items-center gap-1 px-2">
        {partial && gap.down && (
          <button type="button" onClick={() => onExpand(gap.start, "top")} className={expandButton} aria-label={`Show ${step} more lines from line ${gap.newNo}`} title="Show more lines below the change above">
            <span aria-hidden="true">↓</span> {step}
          </button>
        )}
        {partial && gap.up && (
          <button type="button" onClick={() => onExpand(gap.start, "bottom")} className={expandButton} aria-label={`Show ${step} more lines up to line ${last}`} title="Show more lines above the change below">
            <span aria-hidden="true">↑</span> {step}
          </button>
        )}
        <button type="button" onClick={() => onExpand(gap.start, "all")} className={expandButton} aria-label={`Show all ${gap.count} unchanged lines from line ${gap.newNo}`}>
          <span aria-hidden="true">↕</span> {formatInt(gap.count)} unchanged lines
        </button>
        <span className="ml-1 font-mono text-faint">
          @@ −{gap.oldNo} +{gap.newNo} @@
        </span>
      </span>
    </div>
  );
}
