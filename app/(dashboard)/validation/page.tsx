import type { Metadata } from "next";
import { connection } from "next/server";
import { NoRuns } from "@/components/overview/no-runs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ValidationView } from "@/components/validation/validation-view";
import { requireActor } from "@/lib/auth/page";
import { listRuns } from "@/lib/data/read";
import { getRunValidation } from "@/lib/data/trials";

export const metadata: Metadata = { title: "Validation" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A run's sandbox validation at a glance: outcomes per round, recurring exceptions, gaps. */
export default async function ValidationPage({ searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const { run: asked } = await searchParams;
  const runs = await listRuns(actor);
  if (runs.length === 0) {
    return (
      <>
        <PageHeader title="Validation" />
        <NoRuns />
      </>
    );
  }
  const run = typeof asked === "string" && asked !== "" ? asked : (runs[0]?.name ?? "");
  const data = await getRunValidation(actor, run);
  if (!data) {
    return (
      <>
        <PageHeader title="Validation" />
        <EmptyState title="Run not found">
          <p>There is no run named “{run}”. Pick one from the run selector above.</p>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Validation" subtitle={`Sandbox validation trials of ${run}: what each check expected, what it got.`} />
      <ValidationView data={data} />
    </>
  );
}
