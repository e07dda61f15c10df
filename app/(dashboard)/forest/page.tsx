import type { Metadata } from "next";
import { connection } from "next/server";
import { DepthReach, RejectionTable, SeedTable } from "@/components/lineage/forest-tables";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireActor } from "@/lib/auth/page";
import { getForest } from "@/lib/data/forest";
import { listRuns } from "@/lib/data/read";

export const metadata: Metadata = { title: "Forest" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ForestPage({ searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const { run } = await searchParams;
  const runs = await listRuns(actor);
  const name = typeof run === "string" && run !== "" ? run : runs[0]?.name;
  const forest = name ? await getForest(actor, name) : null;
  if (!name || !forest) {
    return (
      <>
        <PageHeader title="Forest" />
        <EmptyState title={name ? "Run not found" : "No runs yet"}>
          <p>{name ? `There is no run named “${name}”.` : "Import a run to see its lineage forest."}</p>
        </EmptyState>
      </>
    );
  }
  const tasks = (extra: Record<string, string>) => `/tasks?${new URLSearchParams({ run: name, ...extra }).toString()}`;
  return (
    <>
      <PageHeader
        title="Forest"
        subtitle={`Run ${name}: ${forest.seeds.length} seed families, by accepted tasks. Open a seed for its whole tree.`}
      />
      <div className="grid gap-4 xl:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-4">
          <SeedTable forest={forest} />
          <DepthReach forest={forest} />
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <RejectionTable title="Rejection by operator" label="Operator" rows={forest.by_operator} href={(k) => tasks({ operator: String(k), status: "rejected" })} />
          <RejectionTable title="Rejection by round" label="Round" rows={forest.by_round} href={(k) => tasks({ round: String(k), status: "rejected" })} format={(k) => `R${k}`} />
        </div>
      </div>
    </>
  );
}
