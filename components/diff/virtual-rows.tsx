"use client";

import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { rowColumns, type SplitRow, type UnifiedRow } from "./display-rows";
import type { DiffFilePayload, DiffViewMode } from "./types";

/** Heights of a line row (leading-5) and of a gap row (h-6), in px. */
const LINE_HEIGHT = 20;
const GAP_HEIGHT = 24;
/** What a split cell spends beside its text, besides the line number: its border, sign (w-5), pr-3. */
const SPLIT_GUTTER = 1 + 20 + 12;

export type VirtualRowsProps = {
  file: DiffFilePayload;
  rows: UnifiedRow[] | SplitRow[];
  view: DiffViewMode;
  label: string;
  className: string;
  render: (row: UnifiedRow | SplitRow) => ReactNode;
  /** Called with the virtualizer once it exists (the caller scrolls to linked lines with it). */
  onReady: (virtualizer: Virtualizer<HTMLDivElement, Element>) => void;
};

/**
 * A long diff as virtual rows in a scroll box. Rows of known height are not measured while
 * scrolling (measuring is a forced layout per row): every unified row, and split rows whose lines
 * fit their half of the box. Only split rows that may wrap are measured as they appear.
 */
export function VirtualRows({ file, rows, view, label, className, render, onReady }: VirtualRowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const probeRef = useRef<HTMLSpanElement>(null);
  // Characters a split cell holds on one line; null until the box has been laid out.
  const [columns, setColumns] = useState<number | null>(null);
  useLayoutEffect(() => {
    const box = scrollRef.current;
    const probe = probeRef.current;
    if (view !== "split" || !box || !probe) return;
    const read = () => {
      const char = probe.getBoundingClientRect().width / 10;
      // The line number column: 2.5rem, or its digits and pr-2 (diff-rows numbersWidth).
      const numbers = Math.max(40, String(Math.max(file.oldLineCount, file.newLineCount)).length * char + 8);
      const text = (box.clientWidth - 1) / 2 - numbers - SPLIT_GUTTER;
      // A tenth to spare: sub-pixel widths and the like must never clip a line.
      setColumns(char > 0 ? Math.floor((text / char) * 0.9) : null);
    };
    read();
    const observer = new ResizeObserver(read);
    observer.observe(box);
    return () => observer.disconnect();
  }, [view, file.oldLineCount, file.newLineCount]);

  // Once per rows: the virtualizer asks for estimates of every row after each measurement.
  const widths = useMemo(() => {
    if (view !== "split") return null;
    const out = new Float64Array(rows.length);
    rows.forEach((row: UnifiedRow | SplitRow, i: number) => {
      if (row.t === "pair") out[i] = rowColumns(file, row);
    });
    return out;
  }, [rows, file, view]);
  const fixed = useCallback((i: number) => widths === null || (columns !== null && (widths[i] ?? 0) <= columns), [widths, columns]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => {
      const row = rows[i];
      if (row?.t === "gap") return GAP_HEIGHT;
      if (row?.t !== "pair" || columns === null || fixed(i)) return LINE_HEIGHT;
      const wide = widths?.[i] ?? 0;
      return LINE_HEIGHT * (Number.isFinite(wide) ? Math.ceil(wide / Math.max(1, columns)) : 1);
    },
    getItemKey: useCallback((i: number) => rows[i]?.key ?? i, [rows]),
    overscan: 30,
    useFlushSync: false,
  });
  useEffect(() => onReady(virtualizer), [onReady, virtualizer]);
  // New column counts change which rows are measured and what the others are estimated at.
  useEffect(() => virtualizer.measure(), [virtualizer, columns]);

  return (
    <div ref={scrollRef} role="region" aria-label={label} tabIndex={0} className={`${className} relative h-[75vh] overflow-auto`}>
      <span ref={probeRef} aria-hidden="true" className="invisible absolute top-0 left-0 whitespace-pre">
        0000000000
      </span>
      <div className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const known = fixed(item.index);
          return (
            <div
              key={row.key}
              data-index={item.index}
              ref={known ? undefined : virtualizer.measureElement}
              className={`absolute top-0 left-0 w-full ${known ? "overflow-y-clip" : ""}`}
              style={{ transform: `translateY(${item.start}px)`, height: known ? item.size : undefined }}
            >
              {render(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
