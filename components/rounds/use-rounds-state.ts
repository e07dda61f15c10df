"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseRoundsState, roundsStateToParams, type RoundsState } from "@/lib/rounds/url-state";

/**
 * The Rounds page's state lives in the URL. Updates go through the native History API, which
 * Next.js folds into useSearchParams without a server round trip; TanStack Query fetches.
 */
export function useRoundsState(defaultRun: string | undefined) {
  const searchParams = useSearchParams();
  const search = searchParams.toString();
  const state = useMemo(() => {
    const s = parseRoundsState(new URLSearchParams(search));
    return s.run ? s : { ...s, run: defaultRun, compare: s.compare.filter((c) => c !== defaultRun) };
  }, [search, defaultRun]);

  const update = useCallback((patch: Partial<RoundsState>) => {
    const current = parseRoundsState(new URLSearchParams(window.location.search));
    const next = new URLSearchParams(window.location.search);
    const params = roundsStateToParams({ ...current, ...patch, slice: { ...current.slice, ...patch.slice } });
    for (const [k, v] of Object.entries(params)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    // An emptied slice field arrives as undefined in the patch: drop it from the URL too.
    for (const [k, v] of Object.entries(patch.slice ?? {})) if (v === undefined) next.delete(k);
    const qs = next.toString();
    window.history.pushState(null, "", qs ? `${window.location.pathname}?${qs}` : window.location.pathname);
  }, []);

  return { state, update };
}
