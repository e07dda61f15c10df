"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { AUDIT_FILTER_KEYS, type AuditFilter } from "@/lib/query/admin";

export type AuditPatch = Partial<Record<keyof AuditFilter, string | null>>;

/**
 * The audit filters live in the URL (shareable). Like the task table, updates go through the
 * History API, which Next.js folds into useSearchParams without a server round trip.
 */
export function useAuditSearch() {
  const searchParams = useSearchParams();
  const search = searchParams.toString();
  const filter = useMemo(() => {
    const params = new URLSearchParams(search);
    const out: AuditFilter = {};
    for (const key of AUDIT_FILTER_KEYS) {
      const value = params.get(key)?.trim();
      if (value) out[key] = value;
    }
    return out;
  }, [search]);

  const update = useCallback((patch: AuditPatch, opts: { push?: boolean } = {}) => {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || value === undefined || value.trim() === "") next.delete(key);
      else next.set(key, value.trim());
    }
    const qs = next.toString();
    const url = qs ? `${window.location.pathname}?${qs}` : window.location.pathname;
    if (opts.push) window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }, []);

  return { filter, update };
}
