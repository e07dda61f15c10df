// Query factories for tasks. The server prefetch spreads these and swaps `queryFn` for a direct
// database call; the browser uses them as they are, so both share one key.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { FacetsJson, SnippetsJson, TaskDetailJson, TaskListJson } from "@/lib/api/types";
import { type TaskFilter, taskFilterToSearch } from "@/lib/tasks/filter";
import { fetchJson } from "./fetch-json";

export const taskKeys = {
  all: ["tasks"] as const,
  list: (search: string) => ["tasks", "list", search] as const,
  detail: (id: number) => ["tasks", "detail", id] as const,
  facets: (run: string | undefined) => ["facets", run ?? ""] as const,
  snippets: (q: string, ids: number[]) => ["tasks", "snippets", q, ids.join(",")] as const,
};

export function taskListQuery(filter: TaskFilter) {
  const search = taskFilterToSearch(filter);
  return queryOptions({
    queryKey: taskKeys.list(search),
    queryFn: ({ signal }) => fetchJson<TaskListJson>(`/api/v1/tasks?${search}`, signal),
    // Keep the last page on screen while the next filter loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** Where the search `q` matched in the tasks `ids` (a page of the table), after the page itself. */
export function snippetsQuery(q: string, ids: number[]) {
  const search = new URLSearchParams({ q, ids: ids.join(",") });
  return queryOptions({
    queryKey: taskKeys.snippets(q, ids),
    queryFn: ({ signal }) => fetchJson<SnippetsJson>(`/api/v1/tasks/snippets?${search}`, signal),
    staleTime: 5 * 60_000,
  });
}

export function taskQuery(id: number) {
  return queryOptions({
    queryKey: taskKeys.detail(id),
    queryFn: ({ signal }) => fetchJson<TaskDetailJson>(`/api/v1/tasks/${id}`, signal),
  });
}

export function facetsQuery(run: string | undefined) {
  return queryOptions({
    queryKey: taskKeys.facets(run),
    queryFn: ({ signal }) =>
      fetchJson<FacetsJson>(`/api/v1/facets${run ? `?run=${encodeURIComponent(run)}` : ""}`, signal),
    staleTime: 5 * 60_000,
  });
}
