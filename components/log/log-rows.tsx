"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { type Ref, useEffect, useImperativeHandle, useLayoutEffect, useRef } from "react";
import type { LineMatch } from "@/lib/log/matches";
import type { LogRef } from "@/lib/query/logs";
import { LogLine } from "./log-line";
import { useLogWindows } from "./use-log-windows";

export type ScrollHow = "center" | "reveal" | "start" | "end";

export interface LogRowsHandle {
  /** Scroll so `line` (1-based) shows; "reveal" leaves the view alone when it already does. */
  scrollToLine: (line: number, how: ScrollHow) => void;
  /** The first line on screen (1-based). */
  topLine: () => number;
  focus: () => void;
}

export type LogRowsProps = {
  logRef: LogRef;
  total: number;
  wrap: boolean;
  selected: number | null;
  matches: ReadonlyMap<number, readonly LineMatch[]> | null;
  current: LineMatch | null;
  trimMatches: boolean;
  downloadUrl: string;
  onSelect: (line: number) => void;
  onLoading: (loading: boolean, error: Error | null) => void;
  handle: Ref<LogRowsHandle>;
};

const ROW = 20;
// What the server assumes for the first render; the browser measures the real box right after.
const INITIAL_RECT = { width: 1200, height: 720 };

export function LogRows({ logRef, total, wrap, selected, matches, current, trimMatches, downloadUrl, onSelect, onLoading, handle }: LogRowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const charWidth = useRef(7.2);
  const gutterWidth = `calc(${Math.max(String(total).length, 2)}ch + 1.25rem + 1px)`;

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (wrap ? ROW * wrappedRows(i) : ROW),
    overscan: 20,
    initialRect: INITIAL_RECT,
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const range = virtualizer.range ?? { startIndex: 0, endIndex: Math.min(total, 36) - 1 };
  const { lineAt, loading, error } = useLogWindows(logRef, range.startIndex, range.endIndex, total);

  // A wrapped line's height guessed from its length, so jumps land close before rows are measured.
  function wrappedRows(i: number): number {
    const text = lineAt(i)?.text;
    const width = (scrollRef.current?.clientWidth ?? INITIAL_RECT.width) - 80;
    const cols = Math.max(20, Math.floor(width / charWidth.current));
    return text ? Math.max(1, Math.ceil(text.length / cols)) : 1;
  }

  useEffect(() => onLoading(loading, error), [loading, error, onLoading]);

  useLayoutEffect(() => {
    const probe = scrollRef.current?.querySelector<HTMLElement>("[data-probe]");
    if (probe) charWidth.current = probe.getBoundingClientRect().width / 10 || charWidth.current;
  }, []);

  // The virtualizer keeps an object for every row it has laid out until it re-measures; across
  // 700,000 rows that adds up. Rows are all one height unless wrapping, so re-measuring now and
  // then costs nothing visible and keeps memory flat however far one scrolls.
  const laidOut = useRef({ first: -1, count: 0 });
  useEffect(() => {
    const first = items[0]?.index ?? 0;
    if (wrap || first === laidOut.current.first) return;
    laidOut.current.first = first;
    laidOut.current.count += items.length;
    if (laidOut.current.count > 20_000) {
      laidOut.current.count = 0;
      virtualizer.measure();
    }
  });

  // Toggling wrap changes every row's height: forget the measurements, keep the top line in place.
  const lastTop = useRef(0);
  useEffect(() => {
    lastTop.current = virtualizer.range?.startIndex ?? 0;
  });
  const firstWrap = useRef(true);
  useLayoutEffect(() => {
    if (firstWrap.current) {
      firstWrap.current = false;
      return;
    }
    virtualizer.measure();
    virtualizer.scrollToIndex(lastTop.current, { align: "start" });
  }, [wrap, virtualizer]);

  useImperativeHandle(
    handle,
    () => ({
      scrollToLine(line, how) {
        const index = Math.min(Math.max(line, 1), total) - 1;
        const r = virtualizer.range;
        if (how === "reveal" && r && index > r.startIndex && index < r.endIndex) return;
        virtualizer.scrollToIndex(index, { align: how === "reveal" ? "center" : how });
      },
      topLine: () => (virtualizer.range?.startIndex ?? 0) + 1,
      focus: () => scrollRef.current?.focus({ preventScroll: true }),
    }),
    [virtualizer, total],
  );

  // Bring the current match into view sideways once its line is on screen (long lines scroll).
  const revealed = useRef("");
  const currentLoaded = current ? lineAt(current.line) !== undefined : false;
  useEffect(() => {
    const key = current ? `${current.line}:${current.start}` : "";
    const box = scrollRef.current;
    if (!current || !box || !currentLoaded || revealed.current === key) return;
    const mark = box.querySelector<HTMLElement>("mark[data-current]");
    if (!mark) return;
    revealed.current = key;
    if (wrap) return;
    const left = mark.getBoundingClientRect().left - box.getBoundingClientRect().left + box.scrollLeft;
    const gutter = box.querySelector<HTMLElement>("[data-line] > a")?.offsetWidth ?? 0;
    if (left < box.scrollLeft + gutter || left + mark.offsetWidth > box.scrollLeft + box.clientWidth) {
      box.scrollLeft = Math.max(0, left - gutter - box.clientWidth / 3);
    }
  });

  return (
    <div
      ref={scrollRef}
      role="region"
      aria-label={`Log lines (${total.toLocaleString("en-US")})`}
      tabIndex={0}
      className="relative min-h-0 flex-1 overflow-auto bg-surface font-mono text-xs leading-5 [tab-size:8] focus-visible:outline-1 focus-visible:outline-offset-[-1px] focus-visible:outline-accent/60"
    >
      <span data-probe aria-hidden="true" className="invisible absolute top-0 left-0 whitespace-pre">
        0000000000
      </span>
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const line = lineAt(item.index);
          const number = item.index + 1;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={wrap ? virtualizer.measureElement : undefined}
              className={`absolute top-0 left-0 ${wrap ? "w-full" : "min-w-full"}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <LogLine
                number={number}
                text={line?.text}
                clippedChars={line?.clippedChars}
                matches={matches?.get(item.index)}
                currentStart={current?.line === item.index ? current.start : undefined}
                trimMatches={trimMatches}
                selected={selected === number}
                wrap={wrap}
                gutterWidth={gutterWidth}
                downloadUrl={downloadUrl}
                onSelect={onSelect}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
