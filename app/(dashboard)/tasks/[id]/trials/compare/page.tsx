import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { VisibleText } from "@/components/code/visible-text";
import { TrialCompare } from "@/components/trials/trial-compare";
import { PageHeader } from "@/components/ui/page-header";
import { parseId } from "@/lib/api/http";
import { requireActor } from "@/lib/auth/page";
import { compareTrials } from "@/lib/data/trials";

export const metadata: Metadata = { title: "Compare trials" };

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** Two validation trials of one task side by side (e.g. two oracle repeats that disagree). */
export default async function CompareTrialsPage({ params, searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const taskId = parseId((await params).id);
  const { a, b } = await searchParams;
  const aId = typeof a === "string" ? parseId(a) : null;
  const bId = typeof b === "string" ? parseId(b) : null;
  if (taskId === null || aId === null || bId === null) notFound();
  const result = await compareTrials(actor, taskId, aId, bId);
  if (!result) notFound();
  const taskExt = result.a.task_ext_id ?? String(taskId);
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-1 flex items-center gap-1.5 text-xs text-muted">
        <Link href={`/tasks/${taskId}#trials`} className="font-mono hover:text-fg hover:underline">
          <VisibleText text={taskExt} />
        </Link>
        <span aria-hidden="true">/</span>
        <span className="text-fg">Compare trials</span>
      </nav>
      <PageHeader title="Compare trials" subtitle="Rewards, per-test outcomes (disagreements first) and the verifier output of both." />
      <TrialCompare {...result} />
    </>
  );
}
