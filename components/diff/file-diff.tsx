"use client";

import type { Virtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { rawFileHref } from "@/components/task/file-panel";
import { formatInt } from "@/lib/format/number";
import { type CellSource, cellSource, expand, type Expansion, gapHolding, lineAnchor, NOTHING_EXPANDED, rowOfAnchor, splitRows, unifiedRows } from "./display-rows";
import { type ExpandSide, GapRow, numbersWidth, SplitLine, UnifiedLine } from "./diff-rows";
import { VirtualRows } from "./virtual-rows";
import type { DiffFilePayload, DiffSide, DiffViewMode } from "./types";

/** Up to this many rows render as plain DOM (the browser's find works); beyond, rows are virtual. */
const PLAIN_LIMIT = 1_500;

const STATUS_CLASS = {
  added: "bg-ok-soft text-ok",
  removed: "bg-bad-soft text-bad",
  modified: "bg-warn-soft text-warn",
  unchanged: "bg-surface-3 text-muted",
} as const;

export type FileDiffProps = {
  file: DiffFilePayload;
  view: DiffViewMode;
  from: DiffSide;
  to: DiffSide;
  /** An anchor of this file to show (from the URL hash). */
  target: { side: "L" | "O"; no: number } | null;
};

/** Five blocks in proportion, as GitHub draws them. */
function ChangeBlocks({ added, removed }: { added: number; removed: number }) {
  const total = added + removed;
  const greens = total === 0 ? 0 : Math.round((added / total) * 5);
  const reds = total === 0 ? 0 : Math.min(5 - greens, Math.max(removed > 0 ? 1 : 0, 5 - greens));
  return (
    <span aria-hidden="true" className="flex gap-px">
      {Array.from({ length: 5 }, (_, i) => (
        <span key={i} className={`size-2 rounded-[1px] ${i < greens ? "bg-ok" : i < greens + reds ? "bg-bad" : "bg-surface-3"}`} />
      ))}
    </span>
  );
}

export function FileDiff({ file, view, from, to, target }: FileDiffProps) {
  const [open, setOpen] = useState(file.status !== "unchanged");
  const [expansion, setExpansion] = useState<Expansion>(NOTHING_EXPANDED);
  // The hash is only known in the browser: unfold the run that hides the linked line.
  useEffect(() => {
    if (!target) return;
    const gap = gapHolding(file, rowOfAnchor(file, target.side, target.no));
    setOpen(true);
    if (gap !== null) setExpansion((e) => expand(e, gap, "all"));
  }, [file, target]);
  const rows = useMemo(() => (view === "split" ? splitRows(file, expansion) : unifiedRows(file, expansion)), [file, view, expansion]);
  const cell = useMemo(() => cellSource(file), [file]);
  // A button that unfolds the last of a run disappears with it: its focus moves to the first line it showed.
  const [refocus, setRefocus] = useState<{ start: number; newNo: number } | null>(null);
  const onExpand = (start: number, side: ExpandSide) => {
    const gap = rows.find((r) => r.t === "gap" && r.start === start);
    if (gap?.t === "gap") setRefocus({ start, newNo: gap.newNo });
    setExpansion((e) => expand(e, start, side));
  };
  useEffect(() => {
    if (!refocus) return;
    setRefocus(null);
    if (rows.some((r) => r.t === "gap" && r.start === refocus.start)) return;
    const line = document.getElementById(lineAnchor(file.index, { op: 0, oldNo: 0, newNo: refocus.newNo }));
    line?.querySelector<HTMLElement>("a[href]")?.focus();
  }, [rows, refocus, file.index]);
  const fileHeader = `f${file.index}`;

  return (
    <section id={fileHeader} aria-label={`Diff of ${file.path}`} className="scroll-mt-14 overflow-clip rounded-lg border border-line bg-surface">
      <header className="sticky top-11 z-10 flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-surface-2 px-3 py-1.5 text-xs">
        <button
          type="button"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-label={`${open ? "Collapse" : "Expand"} ${file.path}`}
          className="w-3 text-[9px] text-faint hover:text-fg"
          disabled={file.rows.length === 0}
        >
          {file.rows.length === 0 ? "" : open ? "▼" : "▶"}
        </button>
        <h3 className="min-w-0 truncate font-mono font-medium">
          <VisibleText text={file.path} />
        </h3>
        <span className={`rounded px-1.5 text-2xs font-medium ${STATUS_CLASS[file.status]}`}>{file.status}</span>
        {file.status !== "unchanged" && (
          <span className="flex items-center gap-2 font-mono text-2xs tabular-nums">
            <span className="text-ok">+{formatInt(file.added)}</span>
            <span className="text-bad">−{formatInt(file.removed)}</span>
            <ChangeBlocks added={file.added} removed={file.removed} />
          </span>
        )}
        <span className="text-2xs text-muted">{file.binary ? "Binary" : file.language}</span>
        <span className="text-2xs text-faint tabular-nums">
          {formatInt(file.oldLineCount)} → {formatInt(file.newLineCount)} lines
        </span>
        {file.coarse && <span className="text-2xs text-warn" title="Too many edits to align line by line: shown as whole-region replacement">coarse</span>}
        <span className="ml-auto flex items-center gap-3 text-2xs">
          {file.status === "unchanged" && (
            <a href={`/tasks/${to.id}?file=${encodeURIComponent(file.path)}#files`} className="text-accent hover:underline">
              View file
            </a>
          )}
          {file.status !== "added" && (
            <a href={rawFileHref(from.id, file.path)} download className="text-accent hover:underline" title={`Raw file of ${from.task_id}`}>
              Raw old
            </a>
          )}
          {file.status !== "removed" && (
            <a href={rawFileHref(to.id, file.path)} download className="text-accent hover:underline" title={`Raw file of ${to.task_id}`}>
              Raw new
            </a>
          )}
        </span>
      </header>
      {open && rows.length > 0 && (
        <DiffBody file={file} rows={rows} cell={cell} view={view} onExpand={onExpand} target={target} />
      )}
    </section>
  );
}

type BodyProps = {
  file: DiffFilePayload;
  rows: ReturnType<typeof unifiedRows> | ReturnType<typeof splitRows>;
  cell: CellSource;
  view: DiffViewMode;
  onExpand: (start: number, side: ExpandSide) => void;
  target: FileDiffProps["target"];
};

const frame = "bg-surface font-mono text-xs leading-5 [tab-size:4]";

function Row({ row, file, cell, onExpand }: { row: BodyProps["rows"][number]; file: number; cell: CellSource; onExpand: BodyProps["onExpand"] }) {
  if (row.t === "gap") return <GapRow gap={row} onExpand={onExpand} />;
  if (row.t === "pair") return <SplitLine row={row} file={file} cell={cell} />;
  return <UnifiedLine at={row.at} file={file} cell={cell} />;
}

function DiffBody({ file, rows, cell, view, onExpand, target }: BodyProps) {
  const virtual = rows.length > PLAIN_LIMIT;
  const virtualizer = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);
  const onReady = useCallback((v: Virtualizer<HTMLDivElement, Element>) => {
    virtualizer.current = v;
  }, []);
  const scrolled = useRef<string | null>(null);
  useEffect(() => {
    if (!target) return;
    const anchor = lineAnchor(file.index, { op: target.side === "O" ? 1 : 2, oldNo: target.no, newNo: target.no });
    if (scrolled.current === anchor) return;
    const at = rowOfAnchor(file, target.side, target.no);
    const i = rows.findIndex((r) => (r.t === "line" ? r.at === at : r.t === "pair" ? r.left === at || r.right === at : false));
    if (i < 0) return; // still folded: the next render has it
    scrolled.current = anchor;
    if (virtual) {
      document.getElementById(`f${file.index}`)?.scrollIntoView({ block: "start" });
      virtualizer.current?.scrollToIndex(i, { align: "center" });
    } else document.getElementById(anchor)?.scrollIntoView({ block: "center" });
  }, [file, rows, target, virtual]);
  const body = `${frame} ${numbersWidth(Math.max(file.oldLineCount, file.newLineCount))}`;
  const render = useCallback((row: BodyProps["rows"][number]) => <Row row={row} file={file.index} cell={cell} onExpand={onExpand} />, [file.index, cell, onExpand]);

  if (!virtual) {
    return (
      <div role="region" aria-label={`${file.path}, ${view} diff`} className={`${body} ${view === "unified" ? "overflow-x-auto" : ""}`}>
        {rows.map((row) => (
          <Row key={row.key} row={row} file={file.index} cell={cell} onExpand={onExpand} />
        ))}
      </div>
    );
  }
  return (
    <VirtualRows
      file={file}
      rows={rows}
      view={view}
      label={`${file.path}, ${view} diff (${rows.length} rows, virtualized)`}
      className={body}
      render={render}
      onReady={onReady}
    />
  );
}
