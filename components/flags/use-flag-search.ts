"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { flagApiSearch, pageStatus } from "./flag-search";

export type FlagParamPatch = Record<string, string | number | null | undefined>;

/**
 * The Flags page's filters in the URL, like the task table: updates go through the History API,
 * which Next.js folds into useSearchParams without a server round trip; TanStack Query fetches.
 */
export function useFlagSearch(defaultRun: string) {
  const params = useSearchParams();
  const get = (key: string) => params.get(key) ?? "";
  const update = useCallback((patch: FlagParamPatch, opts: { push?: boolean; keepCursor?: boolean } = { push: true }) => {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || value === undefined || value === "") next.delete(key);
      else next.set(key, String(value));
    }
    if (!opts.keepCursor) next.delete("cursor");
    const qs = next.toString();
    const url = qs ? `${window.location.pathname}?${qs}` : window.location.pathname;
    if (opts.push === false) window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
  }, []);
  return {
    get,
    status: pageStatus(params),
    run: get("run") || defaultRun,
    apiSearch: flagApiSearch(params, defaultRun),
    update,
  };
}
