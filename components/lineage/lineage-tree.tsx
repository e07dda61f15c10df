"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRouter } from "next/navigation";
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { LineageJson, LineageNodeJson } from "@/lib/api/types";
import { type LineageParams, lineageQuery } from "@/lib/query/lineage";
import { addNodes, childrenIndex, pathTo, rootOf, type TreeRow, visibleRows } from "./tree-model";
import { ROW_HEIGHT, TreeRowView } from "./tree-row";
import { writeNodeParam } from "./node-param";

export type LineageTreeProps = {
  /** The task the view is about (the page's task, or the family's seed). */
  focusId: number;
  /** The node selected in the URL (`?node=`), if any. */
  initialNode: number | null;
  /** The prefetched query: same key on the server and in the browser. */
  params: LineageParams;
  /** Levels fetched when a node whose children are not loaded is opened. */
  loadDepth: number;
  cap: number;
  /** Fixed height of the scroll box in px; the panel shrinks to its rows when they are fewer. */
  height: number;
  fill?: boolean;
  label: string;
  /** Tag on the focus row ("this task", "seed"). */
  focusTag: string;
  diffHref: (node: LineageNodeJson) => string | null;
  dim?: (node: LineageNodeJson) => boolean;
  onSelectedChange?: (path: LineageNodeJson[]) => void;
};

export function LineageTree({ focusId, initialNode, params, loadDepth, cap, height, fill, label, focusTag, diffHref, dim, onSelectedChange }: LineageTreeProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const treeId = useId();
  const { data } = useQuery(lineageQuery(focusId, params));
  const [extra, setExtra] = useState<LineageJson[]>([]);
  const nodes = useMemo(() => {
    let map = new Map<number, LineageNodeJson>();
    for (const d of data ? [data, ...extra] : extra) map = addNodes(map, d);
    return map;
  }, [data, extra]);
  const kids = useMemo(() => childrenIndex(nodes), [nodes]);
  const rootId = useMemo(() => rootOf(nodes, focusId), [nodes, focusId]);

  const [selectedKey, setSelectedKey] = useState(() => `n${initialNode !== null && nodes.has(initialNode) ? initialNode : focusId}`);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [showAll, setShowAll] = useState<ReadonlySet<number>>(new Set());
  const pinned = useMemo(() => new Set([...pathTo(nodes, focusId), ...(initialNode ? pathTo(nodes, initialNode) : [])]), [nodes, focusId, initialNode]);
  const rows = useMemo(() => visibleRows(nodes, kids, rootId, { collapsed, showAll, pinned, cap }), [nodes, kids, rootId, collapsed, showAll, pinned, cap]);
  const index = Math.max(0, rows.findIndex((r) => r.key === selectedKey));
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(
    async (id: number) => {
      setBusy(id);
      try {
        const more = await queryClient.fetchQuery(lineageQuery(id, { depth: loadDepth, limit: 2_000 }));
        setExtra((prev) => [...prev, more]);
      } finally {
        setBusy(null);
      }
    },
    [queryClient, loadDepth],
  );

  const toggle = useCallback(
    (row: TreeRow) => {
      if (row.kind === "more") {
        const parent = nodes.get(row.parentId);
        setShowAll((s) => new Set(s).add(row.parentId));
        if (parent && (kids.get(parent.id)?.length ?? 0) < parent.children) void load(parent.id);
        return;
      }
      const id = row.node.id;
      if (row.open) setCollapsed((s) => new Set(s).add(id));
      else if (row.expandable) {
        setCollapsed((s) => {
          const next = new Set(s);
          next.delete(id);
          return next;
        });
        if ((kids.get(id)?.length ?? 0) === 0) void load(id);
      }
    },
    [nodes, kids, load],
  );

  // Stable, so that rows (memo) do not all render again on every scrolled frame.
  const onRowToggle = useCallback(
    (row: TreeRow) => {
      setSelectedKey(row.key);
      toggle(row);
    },
    [toggle],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    initialRect: { width: 900, height },
    useFlushSync: false,
  });

  const selectIndex = (i: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, i))];
    if (row) setSelectedKey(row.key);
  };

  const selectedRow = rows[index];
  const firstScroll = useRef(true);
  useEffect(() => {
    if (selectedRow?.kind === "node") writeNodeParam(selectedRow.node.id === focusId ? null : selectedRow.node.id);
    virtualizer.scrollToIndex(index, { align: firstScroll.current ? "center" : "auto" });
    firstScroll.current = false;
    if (onSelectedChange && selectedRow?.kind === "node") {
      onSelectedChange(pathTo(nodes, selectedRow.node.id).flatMap((id) => nodes.get(id) ?? []));
    }
    // Only a change of selection moves the view; new rows loading below must not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedKey]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const row = rows[index];
    if (!row) return;
    const parentIndex = () => {
      const parentId = row.kind === "more" ? row.parentId : row.node.parent_id;
      return rows.findIndex((r) => r.kind === "node" && r.node.id === parentId);
    };
    const handled = (() => {
      switch (e.key) {
        case "ArrowDown":
        case "j":
          selectIndex(index + 1);
          return true;
        case "ArrowUp":
        case "k":
          selectIndex(index - 1);
          return true;
        case "Home":
          selectIndex(0);
          return true;
        case "End":
          selectIndex(rows.length - 1);
          return true;
        case "ArrowRight":
          if (row.kind === "more" || (row.expandable && !row.open)) toggle(row);
          else if (row.open) selectIndex(index + 1);
          return true;
        case "ArrowLeft":
          if (row.kind === "node" && row.open) toggle(row);
          else if (parentIndex() >= 0) selectIndex(parentIndex());
          return true;
        case "Enter":
          if (row.kind === "more") toggle(row);
          else router.push(`/tasks/${row.node.id}`);
          return true;
        case "d": {
          const href = row.kind === "node" ? diffHref(row.node) : null;
          if (href) router.push(href);
          return href !== null;
        }
        default:
          return false;
      }
    })();
    if (handled) e.preventDefault();
  };

  const boxHeight = fill ? height : Math.min(height, Math.max(rows.length, 1) * ROW_HEIGHT + 2);
  const rowId = (key: string) => `${treeId}-${key}`;
  return (
    <div
      ref={scrollRef}
      role="tree"
      aria-label={label}
      aria-busy={busy !== null}
      aria-activedescendant={selectedRow ? rowId(selectedRow.key) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="overflow-auto outline-offset-[-2px] focus-visible:[&_[aria-selected=true]]:bg-accent-soft"
      style={{ height: boxHeight }}
    >
      <div className="relative min-w-[640px]" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <div key={row.key} className="absolute top-0 left-0 w-full" style={{ transform: `translateY(${item.start}px)` }}>
              <TreeRowView
                row={row}
                id={rowId(row.key)}
                selected={item.index === index}
                current={row.kind === "node" && row.node.id === focusId}
                currentTag={focusTag}
                dimmed={row.kind === "node" && dim ? dim(row.node) : false}
                diffHref={row.kind === "node" ? diffHref(row.node) : null}
                onSelect={setSelectedKey}
                onToggle={onRowToggle}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
