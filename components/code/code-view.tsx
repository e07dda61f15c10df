"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import type { CodeLine as Line } from "@/lib/text/tones";
import { CodeLine } from "./code-line";

export type CodeViewProps = {
  lines: readonly Line[];
  label: string;
  /** Lines carry `L<n>` ids, and the page opens at the line the address names (`#L12`). */
  anchors?: boolean;
};

/** Up to this many lines render as plain DOM (the browser's find works); beyond, rows are virtual. */
const PLAIN_LIMIT = 1_500;
const ROW_HEIGHT = 20;

function gutterWidth(count: number): string {
  const digits = String(Math.max(count, 1)).length;
  return digits <= 3 ? "w-12" : digits <= 4 ? "w-14" : digits <= 5 ? "w-16" : "w-20";
}

const frame = "overflow-auto bg-surface font-mono text-xs leading-5 [tab-size:4]";

/** The line `#L<n>` names, kept in step with the address (0 when it names none). */
function useHashLine(enabled: boolean): number {
  const [line, setLine] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const read = () => setLine(Number(/^#L(\d+)$/.exec(window.location.hash)?.[1] ?? 0));
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, [enabled]);
  return line;
}

export function CodeView({ lines, label, anchors = false }: CodeViewProps) {
  const gutter = gutterWidth(lines.length);
  const current = useHashLine(anchors && lines.length <= PLAIN_LIMIT);
  // A client-side navigation scrolls to the address's element when the page first commits, which
  // may be its loading state: the file's line (or the place the hash names) is sought once here.
  useEffect(() => {
    if (!anchors || lines.length > PLAIN_LIMIT) return;
    const id = window.location.hash.slice(1);
    if (id) document.getElementById(id)?.scrollIntoView({ block: current > 0 ? "center" : "start" });
  }, [anchors, lines.length, current]);
  if (lines.length === 0) return <p className="px-4 py-6 text-xs text-faint">Empty file.</p>;
  if (lines.length <= PLAIN_LIMIT) {
    return (
      <div role="region" aria-label={label} tabIndex={0} className={`${frame} max-h-[75vh] py-1`}>
        {lines.map((tokens, i) => (
          <CodeLine key={i} number={i + 1} tokens={tokens} gutter={gutter} anchor={anchors} current={current === i + 1} />
        ))}
      </div>
    );
  }
  return <VirtualCode lines={lines} label={label} gutter={gutter} anchors={anchors} />;
}

function VirtualCode({ lines, label, gutter, anchors }: CodeViewProps & { gutter: string }) {
  const parentRef = useRef<HTMLDivElement>(null);
  // The server cannot measure a scroll box: it renders the head of the file, the browser takes over.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const current = useHashLine(anchors === true);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 40,
    useFlushSync: false,
  });
  // A virtual line exists only once scrolled to: the address's `#L<n>` scrolls there first.
  useEffect(() => {
    if (!mounted || !anchors) return;
    const go = () => {
      const m = /^#L(\d+)$/.exec(window.location.hash);
      if (m) virtualizer.scrollToIndex(Number(m[1]) - 1, { align: "center" });
    };
    go();
    window.addEventListener("hashchange", go);
    return () => window.removeEventListener("hashchange", go);
  }, [mounted, anchors, virtualizer]);
  const widest = lines.reduce((w, l) => Math.max(w, l.reduce((n, [, t]) => n + t.length, 0)), 0);

  return (
    <div ref={parentRef} role="region" aria-label={`${label} (${lines.length} lines, virtualized)`} tabIndex={0} className={`${frame} h-[75vh]`}>
      {!mounted ? (
        lines.slice(0, 200).map((tokens, i) => <CodeLine key={i} number={i + 1} tokens={tokens} gutter={gutter} />)
      ) : (
        <div className="relative" style={{ height: virtualizer.getTotalSize(), minWidth: `calc(${widest}ch + 6rem)` }}>
          {virtualizer.getVirtualItems().map((item) => (
            <div key={item.key} className="absolute top-0 left-0 w-full" style={{ transform: `translateY(${item.start}px)` }}>
              <CodeLine number={item.index + 1} tokens={lines[item.index] ?? []} gutter={gutter} anchor={anchors} current={current === item.index + 1} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
