"use client";

import { type UseQueryResult, useQueries, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type HeldWindow, windowsFor, windowsToDrop } from "@/lib/log/windows";
import { LOG_WINDOW, type LogRangeJson, type LogRef, logKeys, logWindowQuery } from "@/lib/query/logs";

/** Lines within this distance of the screen are fetched ahead, so a slow scroll never sees a gap. */
const AHEAD = 150;
/** Windows kept after they leave the screen (each ≤ 1,000 lines; lines are capped at LINE_CAP). */
const KEEP_IDLE = 6;
/** How long the view must rest after a far jump before its windows are fetched. */
const REST_MS = 60;

export interface LoadedLine {
  text: string;
  clippedChars?: number;
}

const clippedIndex = new WeakMap<LogRangeJson, Map<number, number>>();

function clippedOf(range: LogRangeJson): Map<number, number> {
  let map = clippedIndex.get(range);
  if (!map) {
    map = new Map(range.clipped.map((c) => [c.line, c.chars]));
    clippedIndex.set(range, map);
  }
  return map;
}

/**
 * The windows of lines covering the rows on screen (`first`..`last`, 0-based), fetched on demand.
 * Idle windows beyond a few are dropped from the cache, so memory does not grow with scrolling.
 */
export function useLogWindows(ref: LogRef, first: number, last: number, total: number) {
  const queryClient = useQueryClient();
  const wanted = windowsFor(first - AHEAD, last + AHEAD, total, LOG_WINDOW);
  const wantedKey = wanted.join(",");

  // Scrolling moves a window or so at a time: fetch at once. A jump far away (dragging the
  // scrollbar across 700 windows) waits until the view rests, so the server is not asked for
  // every window flown over. Windows already cached show either way.
  const previous = useRef<number[]>(wanted);
  const near = wanted.some((w) => previous.current.some((p) => Math.abs(p - w) <= 1));
  useEffect(() => {
    previous.current = wanted;
  });
  const [restedKey, setRestedKey] = useState(wantedKey);
  useEffect(() => {
    const timer = setTimeout(() => setRestedKey(wantedKey), REST_MS);
    return () => clearTimeout(timer);
  }, [wantedKey]);
  const enabled = near || restedKey === wantedKey;
  const { data, loading, error } = useQueries({ queries: wanted.map((w) => ({ ...logWindowQuery(ref, w), enabled })), combine });

  useEffect(() => {
    const held: HeldWindow[] = queryClient
      .getQueryCache()
      .findAll({ queryKey: logKeys.windows(ref) })
      .map((q) => ({ index: Number(q.queryKey[4]), updatedAt: q.state.dataUpdatedAt, inUse: q.getObserversCount() > 0 }));
    for (const index of windowsToDrop(held, KEEP_IDLE)) queryClient.removeQueries({ queryKey: logKeys.window(ref, index), exact: true });
  }, [queryClient, ref, wantedKey]);

  const byWindow = useMemo(() => {
    const map = new Map<number, LogRangeJson>();
    for (const range of data) if (range) map.set(Math.floor(range.from / LOG_WINDOW), range);
    return map;
  }, [data]);

  const lineAt = useCallback(
    (index: number): LoadedLine | undefined => {
      const range = byWindow.get(Math.floor(index / LOG_WINDOW));
      const text = range?.lines[index - range.from];
      if (range === undefined || text === undefined) return undefined;
      const chars = range.clipped.length > 0 ? clippedOf(range).get(index) : undefined;
      return chars === undefined ? { text } : { text, clippedChars: chars };
    },
    [byWindow],
  );

  return { lineAt, loading, error };
}

/** Module-level, so useQueries keeps the combined value stable while no window changes. */
function combine(results: UseQueryResult<LogRangeJson>[]) {
  return {
    data: results.map((r) => r.data),
    loading: results.some((r) => r.isPending),
    error: results.find((r) => r.error)?.error ?? null,
  };
}
