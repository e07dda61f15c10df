"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import type { BaselineJson, RunRoundDetailJson } from "@/lib/api/types";
import { baselineQuery, baselinesQuery } from "@/lib/query/baselines";
import { roundsQuery } from "@/lib/rounds/query";
import { baselineSeries } from "@/lib/rounds/series";
import type { RoundsState } from "@/lib/rounds/url-state";

/**
 * The statistics the Rounds page draws: the run, the runs compared with it (same slice), then
 * the chosen baselines (frozen, with the slice they were saved for). A baseline id that is no
 * longer in the list (deleted since the link was made) is reported, not fetched.
 */
export function useRoundsData(run: string, state: RoundsState) {
  const runs = useQueries({ queries: [run, ...state.compare].map((n) => roundsQuery(n, state.slice)) });
  const list = useQuery(baselinesQuery());
  const known = list.data ? state.baselines.filter((id) => list.data.items.some((b) => b.id === id)) : state.baselines;
  const missing = state.baselines.filter((id) => !known.includes(id));
  const chosen = useQueries({ queries: known.map((id) => baselineQuery(id)) });
  const primary = runs[0]?.data;
  const baselines = chosen.map((r) => r.data).filter((d): d is BaselineJson => d !== undefined);
  const series = primary
    ? [primary, ...runs.slice(1).map((r) => r.data), ...baselines.map(baselineSeries)].filter((d): d is RunRoundDetailJson => d !== undefined)
    : [];
  return {
    primary,
    series,
    baselines,
    missing,
    list: list.data?.items ?? [],
    error: [...runs, ...chosen].find((r) => r.error)?.error ?? list.error,
    fetching: [...runs, ...chosen].some((r) => r.isFetching),
  };
}
