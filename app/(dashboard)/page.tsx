import { connection } from "next/server";
import { NoRuns } from "@/components/overview/no-runs";
import { RunOverview } from "@/components/overview/run-overview";
import { RunsTable } from "@/components/overview/runs-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { getRunOverview, listRuns } from "@/lib/data/read";
import { getRoundDetail } from "@/lib/data/rounds";
import type { RunOverviewJson } from "@/lib/api/types";

/** With no run selected, the most recent runs get a full card each; older ones only a table row. */
const MAX_CARDS = 5;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function OverviewPage({ searchParams }: Props) {
  await connection();
  const { run } = await searchParams;
  const selected = typeof run === "string" && run !== "" ? run : undefined;
  const actor = await requireActor();
  const runs = await listRuns(actor);
  if (runs.length === 0) {
    return (
      <>
        <PageHeader title="Overview" />
        <NoRuns />
      </>
    );
  }
  const names = selected ? [selected] : runs.slice(0, MAX_CARDS).map((r) => r.name);
  const overviews = (await Promise.all(names.map((n) => getRunOverview(actor, n)))).filter((o): o is RunOverviewJson => o !== null);
  // Cached per run and data version (lib/data/rounds.ts): the small multiples cost one cheap query.
  const curves = new Map(await Promise.all(overviews.map(async (o) => [o.run.name, await getRoundDetail(actor, o.run.name)] as const)));

  return (
    <>
      <PageHeader
        title="Overview"
        subtitle={selected ? `Run ${selected}` : `${runs.length} run${runs.length === 1 ? "" : "s"}, most recent first`}
      />
      <div className="flex flex-col gap-4">
        {!selected && runs.length > 1 && <RunsTable runs={runs} />}
        {selected && overviews.length === 0 && (
          <EmptyState title="Run not found">
            <p>There is no run named “{selected}”. Pick one from the run selector above.</p>
          </EmptyState>
        )}
        {overviews.map((o) => (
          <RunOverview key={o.run.id} overview={o} curves={curves.get(o.run.name)} canInfer={can(actor.role, "ingest")} />
        ))}
      </div>
    </>
  );
}
