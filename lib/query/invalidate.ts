// After a write: refetch what it changed, from a request sent after it.
import type { QueryClient, QueryFilters } from "@tanstack/react-query";

/**
 * Marks the matching queries stale and refetches the shown ones, like `invalidateQueries`, but
 * never settles for an answer to a request sent before the write. TanStack Query 5 joins an
 * invalidation to a fetch already in flight when the query has no data yet (TanStack/query#8530,
 * #11526), and that fetch — a page's first load, a streamed prefetch — may have read the server
 * before the write; its answer would then be kept as fresh. So such a fetch is cancelled first
 * when its query is shown (the invalidation's refetch is then a new request), and when it is not
 * (a prefetch for what comes next) it may finish, and its answer is marked stale at once: whoever
 * shows it next sees it and refetches.
 */
export async function invalidateAfterWrite(client: QueryClient, ...filters: QueryFilters[]): Promise<void> {
  const cache = client.getQueryCache();
  const early = filters.flatMap((f) => cache.findAll({ ...f, fetchStatus: "fetching" })).filter((q) => q.state.data === undefined);
  for (const query of early) {
    if (query.isActive()) continue;
    void query.promise
      ?.catch(() => undefined)
      .then(() => client.invalidateQueries({ queryKey: query.queryKey, exact: true, refetchType: "none" }));
  }
  await Promise.all(early.filter((q) => q.isActive()).map((q) => client.cancelQueries({ queryKey: q.queryKey, exact: true })));
  await Promise.all(filters.map((f) => client.invalidateQueries(f)));
}
