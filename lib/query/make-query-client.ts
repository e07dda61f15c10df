// QueryClient defaults shared by the server prefetch and the browser.
import { defaultShouldDehydrateQuery, isServer, QueryClient } from "@tanstack/react-query";

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Hydrated data is fresh: without this the browser refetches everything on first paint.
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: 1,
      },
      dehydrate: {
        // Ship pending prefetches too, so a page can stream instead of awaiting every query.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/** In the browser one client for the whole session; during SSR a fresh one per render. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
