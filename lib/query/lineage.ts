// Query factory for lineage trees: the task page and the family page prefetch with it on the
// server; the tree fetches deeper levels on demand with the same keys.
import { queryOptions } from "@tanstack/react-query";
import type { LineageJson } from "@/lib/api/types";
import { fetchJson } from "./fetch-json";

export type LineageParams = { depth?: number; limit?: number };

export const lineageKeys = {
  all: ["lineage"] as const,
  subtree: (id: number, p: LineageParams) => ["lineage", id, p.depth ?? null, p.limit ?? null] as const,
};

export function lineageSearch(p: LineageParams): string {
  const q = new URLSearchParams({ descendants: "1" });
  if (p.depth !== undefined) q.set("depth", String(p.depth));
  if (p.limit !== undefined) q.set("limit", String(p.limit));
  return q.toString();
}

export function lineageQuery(id: number, p: LineageParams) {
  return queryOptions({
    queryKey: lineageKeys.subtree(id, p),
    queryFn: ({ signal }) => fetchJson<LineageJson>(`/api/v1/tasks/${id}/lineage?${lineageSearch(p)}`, signal),
    staleTime: 60_000,
  });
}

/** The task page: the path from the seed and two levels below; deeper levels load on demand. */
export const TASK_LINEAGE: LineageParams = { depth: 2, limit: 400 };
/** The family page: the whole tree under a seed, up to the API's cap. */
export const FAMILY_LINEAGE: LineageParams = { limit: 20_000 };
