// Query factory for the Rounds page: the server prefetch swaps queryFn for a direct call, the
// browser fetches the API; both share this key.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { RoundSliceJson, RunRoundDetailJson } from "@/lib/api/types";
import { fetchJson } from "@/lib/query/fetch-json";
import { sliceKey, sliceToSearch } from "./url-state";

export function roundsQuery(run: string, slice: RoundSliceJson) {
  const search = sliceToSearch(slice);
  return queryOptions({
    queryKey: ["rounds", run, sliceKey(slice)] as const,
    queryFn: ({ signal }) =>
      fetchJson<RunRoundDetailJson>(`/api/v1/runs/${encodeURIComponent(run)}/rounds${search ? `?${search}` : ""}`, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
