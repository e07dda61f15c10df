import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { connection } from "next/server";
import { NoRuns } from "@/components/overview/no-runs";
import { RoundsView } from "@/components/rounds/rounds-view";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { getBaseline, listBaselines } from "@/lib/data/baselines";
import { getFacets, listRuns } from "@/lib/data/read";
import { getRoundDetail, listSeedFamilies } from "@/lib/data/rounds";
import { baselineQuery, baselinesQuery } from "@/lib/query/baselines";
import { getServerQueryClient } from "@/lib/query/server";
import { roundsQuery } from "@/lib/rounds/query";
import { parseRoundsState } from "@/lib/rounds/url-state";

export const metadata: Metadata = { title: "Rounds" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Prefetches the statistics of the run (and of the runs and baselines compared), so the charts paint with data. */
export default async function RoundsPage({ searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const state = parseRoundsState(await searchParams);
  const runs = await listRuns(actor);
  if (runs.length === 0) {
    return (
      <>
        <PageHeader title="Rounds" />
        <NoRuns />
      </>
    );
  }
  const run = state.run ?? runs[0]?.name ?? "";
  if (!runs.some((r) => r.name === run)) {
    return (
      <>
        <PageHeader title="Rounds" />
        <EmptyState title="Run not found">
          <p>There is no run named “{run}”. Pick one from the run selector above.</p>
        </EmptyState>
      </>
    );
  }
  const queryClient = getServerQueryClient();
  const [facets, seeds] = await Promise.all([
    getFacets(actor, run),
    listSeedFamilies(actor, run),
    queryClient.prefetchQuery({ ...baselinesQuery(), queryFn: async () => ({ items: await listBaselines(actor) }) }),
    ...state.baselines.map((id) =>
      queryClient.prefetchQuery({
        ...baselineQuery(id),
        queryFn: async () => {
          const baseline = await getBaseline(actor, id);
          if (!baseline) throw new Error(`baseline ${id} not found`);
          return baseline;
        },
      }),
    ),
    ...[run, ...state.compare.filter((c) => c !== run && runs.some((r) => r.name === c))].map((name) =>
      queryClient.prefetchQuery({
        ...roundsQuery(name, state.slice),
        queryFn: async () => {
          const detail = await getRoundDetail(actor, name, state.slice);
          if (!detail) throw new Error(`run "${name}" not found`);
          return detail;
        },
      }),
    ),
  ]);
  return (
    <>
      <PageHeader title="Rounds" subtitle="How tasks grow round by round: counts, rates, difficulty and solver success, computed by the database." />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <RoundsView
          defaultRun={run}
          runs={runs.map((r) => r.name)}
          categories={facets.categories}
          operators={facets.operators}
          seeds={seeds}
          canSaveBaseline={can(actor.role, "review")}
          canDeleteBaseline={can(actor.role, "admin")}
        />
      </HydrationBoundary>
    </>
  );
}
