// Query factories and writes for saved baselines (app/api/v1/baselines). A baseline never
// changes once saved, so its statistics are fetched once.
import { queryOptions } from "@tanstack/react-query";
import type { BaselineJson, BaselineSummaryJson, RoundSliceJson } from "@/lib/api/types";
import { fetchJson, sendJson } from "./fetch-json";

export const baselineKeys = {
  list: ["baselines", "list"] as const,
  detail: (id: number) => ["baselines", "detail", id] as const,
};

export function baselinesQuery() {
  return queryOptions({
    queryKey: baselineKeys.list,
    queryFn: ({ signal }) => fetchJson<{ items: BaselineSummaryJson[] }>("/api/v1/baselines", signal),
    staleTime: 30_000,
  });
}

export function baselineQuery(id: number) {
  return queryOptions({
    queryKey: baselineKeys.detail(id),
    queryFn: ({ signal }) => fetchJson<BaselineJson>(`/api/v1/baselines/${id}`, signal),
    staleTime: Infinity,
  });
}

export function saveBaseline(input: { name: string; run: string; slice: RoundSliceJson }) {
  return sendJson<BaselineSummaryJson>("POST", "/api/v1/baselines", input);
}

export function deleteBaseline(id: number) {
  return sendJson<{ ok: true }>("DELETE", `/api/v1/baselines/${id}`);
}
