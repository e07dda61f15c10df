import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { connection } from "next/server";
import { flagApiSearch } from "@/components/flags/flag-search";
import { FlagsView } from "@/components/flags/flags-view";
import { NoRuns } from "@/components/overview/no-runs";
import { PageHeader } from "@/components/ui/page-header";
import { parseFlagQuery } from "@/lib/api/flag-schemas";
import { requireActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { countFlags, listFlags } from "@/lib/data/flags";
import { listRuns } from "@/lib/data/read";
import { flagCountsQuery, flagListQuery } from "@/lib/query/flags";
import { getServerQueryClient } from "@/lib/query/server";

export const metadata: Metadata = { title: "Flags" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Flags of a run: counted per rule, round and operator, listed with filters, each opening its evidence. */
export default async function FlagsPage({ searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const runs = await listRuns(actor);
  if (runs.length === 0) {
    return (
      <>
        <PageHeader title="Flags" />
        <NoRuns />
      </>
    );
  }
  const defaultRun = runs[0]?.name ?? "";
  const search = flagApiSearch(await searchParams, defaultRun);
  const parsed = parseFlagQuery(new URLSearchParams(search));
  const queryClient = getServerQueryClient();
  const run = new URLSearchParams(search).get("run") ?? defaultRun;
  await Promise.all([
    queryClient.prefetchQuery({ ...flagCountsQuery(run), queryFn: () => countFlags(actor, { run }) }),
    // A malformed address is left to the browser's fetch, which shows the API's message.
    parsed.success &&
      queryClient.prefetchQuery({
        ...flagListQuery(search),
        queryFn: async () => {
          const page = await listFlags(actor, parsed.data);
          return { items: page.items, next: page.next === null ? null : String(page.next) };
        },
      }),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <FlagsView defaultRun={defaultRun} canFlag={can(actor.role, "flag")} />
    </HydrationBoundary>
  );
}
