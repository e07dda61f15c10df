"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseTaskFilter } from "@/lib/tasks/filter";

export type ParamPatch = Record<string, string | number | null | undefined>;
export type UpdateOptions = {
  /** Add a history entry (discrete choices, paging) instead of replacing (typing). */
  push?: boolean;
  /** Keep the page cursor; any change to the filter or sort starts again from page one. */
  keepCursor?: boolean;
};

/**
 * The task table's whole state lives in the URL. Updates go through the native History API,
 * which Next.js folds into useSearchParams without a server round trip: TanStack Query fetches.
 */
export function useTaskSearch() {
  const searchParams = useSearchParams();
  const search = searchParams.toString();
  const parsed = useMemo(() => parseTaskFilter(new URLSearchParams(search)), [search]);

  const update = useCallback((patch: ParamPatch, opts: UpdateOptions = {}) => {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || value === undefined || value === "") next.delete(key);
      else next.set(key, String(value));
    }
    if (!opts.keepCursor) next.delete("cursor");
    const qs = next.toString();
    const url = qs ? `${window.location.pathname}?${qs}` : window.location.pathname;
    if (opts.push) window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }, []);

  return { searchParams, parsed, update };
}
