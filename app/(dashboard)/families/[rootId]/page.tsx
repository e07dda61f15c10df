import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { connection } from "next/server";
import { VisibleText } from "@/components/code/visible-text";
import { FamilyView } from "@/components/lineage/family-view";
import { parseNodeParam } from "@/components/lineage/node-param";
import { PageHeader } from "@/components/ui/page-header";
import { parseId } from "@/lib/api/http";
import { requireActor } from "@/lib/auth/page";
import { getLineage } from "@/lib/data/read";
import { formatInt } from "@/lib/format/number";
import { FAMILY_LINEAGE, lineageKeys } from "@/lib/query/lineage";
import { getServerQueryClient } from "@/lib/query/server";

type Props = {
  params: Promise<{ rootId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: "Family" };

export default async function FamilyPage({ params, searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const id = parseId((await params).rootId);
  if (id === null) notFound();
  const { node } = await searchParams;
  const head = await getLineage(actor, id, {});
  if (!head) notFound();
  // Any task of the family opens the family at its seed, with that task selected.
  const seed = head.ancestors[0];
  if (seed) redirect(`/families/${seed.id}?node=${parseNodeParam(node) ?? id}`);

  const lineage = await getLineage(actor, id, { descendants: true, limit: FAMILY_LINEAGE.limit });
  if (!lineage) notFound();
  const queryClient = getServerQueryClient();
  queryClient.setQueryData(lineageKeys.subtree(id, FAMILY_LINEAGE), lineage);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <nav aria-label="Breadcrumb" className="mb-1 flex items-center gap-1.5 text-xs text-muted">
        <Link href={`/forest?run=${encodeURIComponent(lineage.run)}`} className="hover:text-fg hover:underline">
          Forest
        </Link>
        <span aria-hidden="true">/</span>
        <VisibleText text={lineage.run} />
      </nav>
      <PageHeader
        title={
          <span className="font-mono">
            Family of <VisibleText text={lineage.task.task_id} />
          </span>
        }
        subtitle={`${formatInt(lineage.descendants.length)}${lineage.truncated ? "+" : ""} tasks descended from this seed`}
      />
      <FamilyView rootId={id} initialNode={parseNodeParam(node)} />
    </HydrationBoundary>
  );
}
