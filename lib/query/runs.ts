// Query factories for runs and round statistics (see tasks.ts for the server/browser split).
import { queryOptions } from "@tanstack/react-query";
import type { RunJson, RunRoundsJson } from "@/lib/api/types";
import { fetchJson } from "./fetch-json";

export const runKeys = {
  all: ["runs"] as const,
  rounds: (run: string) => ["runs", run, "rounds"] as const,
};

export function runsQuery() {
  return queryOptions({
    queryKey: runKeys.all,
    queryFn: ({ signal }) => fetchJson<RunJson[]>("/api/v1/runs", signal),
  });
}

export function runRoundsQuery(run: string) {
  return queryOptions({
    queryKey: runKeys.rounds(run),
    queryFn: ({ signal }) => fetchJson<RunRoundsJson>(`/api/v1/runs/${encodeURIComponent(run)}/rounds`, signal),
  });
}
