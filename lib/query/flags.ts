// Query factories and writes for flags (app/api/v1/flags, app/api/v1/tasks/{id}/flags). The server
// prefetch swaps `queryFn` for a direct database call under the same key.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { FlagChange, NewFlag } from "@/lib/api/flag-schemas";
import type { FlagCountsJson, FlagJson, FlagListJson } from "@/lib/api/types";
import { fetchJson, sendJson } from "./fetch-json";

export const flagKeys = {
  all: ["flags"] as const,
  list: (search: string) => ["flags", "list", search] as const,
  counts: (run: string | undefined) => ["flags", "counts", run ?? ""] as const,
  task: (taskId: number) => ["flags", "task", taskId] as const,
};

/** `search`: the API's query string (run, rule, status, …, cursor). */
export function flagListQuery(search: string) {
  return queryOptions({
    queryKey: flagKeys.list(search),
    queryFn: ({ signal }) => fetchJson<FlagListJson>(`/api/v1/flags?${search}`, signal),
    placeholderData: keepPreviousData,
  });
}

export function flagCountsQuery(run: string | undefined) {
  return queryOptions({
    queryKey: flagKeys.counts(run),
    queryFn: ({ signal }) => fetchJson<FlagCountsJson>(`/api/v1/flags/counts${run ? `?run=${encodeURIComponent(run)}` : ""}`, signal),
  });
}

export function taskFlagsQuery(taskId: number) {
  return queryOptions({
    queryKey: flagKeys.task(taskId),
    queryFn: ({ signal }) => fetchJson<{ items: FlagJson[] }>(`/api/v1/tasks/${taskId}/flags`, signal),
  });
}

export function postFlag(taskId: number, flag: Partial<NewFlag> & { note: string }) {
  return sendJson<FlagJson>("POST", `/api/v1/tasks/${taskId}/flags`, flag);
}

export function patchFlag(id: number, change: FlagChange) {
  return sendJson<FlagJson>("PATCH", `/api/v1/flags/${id}`, change);
}
