import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { AgainstPicker } from "@/components/diff/against-picker";
import { DiffFiles } from "@/components/diff/diff-files";
import { DiffHeader } from "@/components/diff/diff-header";
import { DiffLink } from "@/components/diff/diff-link";
import { DiffFileNav } from "@/components/diff/file-nav";
import { StepSummary } from "@/components/diff/step-summary";
import type { DiffSide } from "@/components/diff/types";
import { ViewToggle } from "@/components/diff/view-toggle";
import { EmptyState } from "@/components/ui/empty-state";
import { parseId } from "@/lib/api/http";
import { requireActor } from "@/lib/auth/page";
import { loadDiffView } from "@/lib/data/diff";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: "Diff" };

const side = (t: { id: number; task_id: string; round: number | null; operator: string | null }): DiffSide => ({
  id: t.id,
  task_id: t.task_id,
  round: t.round,
  operator: t.operator,
});

function relationText(relation: string, hops: number): string {
  if (relation === "unrelated") return "not in one lineage";
  if (hops === 1) return relation === "ancestor" ? "parent → task" : "task → child";
  return relation === "ancestor" ? `${hops} rounds of changes, ancestor → task` : `${hops} rounds of changes, task → descendant`;
}

export default async function DiffPage({ params, searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const id = parseId((await params).id);
  if (id === null) notFound();
  const { against, file } = await searchParams;
  const againstId = typeof against === "string" ? parseId(against) : null;
  if (typeof against === "string" && againstId === null) notFound();

  const data = await loadDiffView(actor, id, againstId);
  if (!data.found) notFound();
  const { lineage } = data;
  const task = lineage.task;

  const picker = (current: number) => (
    <AgainstPicker taskId={task.id} current={current} ancestors={lineage.ancestors} descendants={lineage.descendants} />
  );
  if (!data.pair) {
    return (
      <>
        <DiffHeader run={lineage.run} task={side(task)} from={null} to={null} relation={null} controls={lineage.descendants.length > 0 ? picker(0) : null} />
        <EmptyState title="A seed has no parent">
          <p>Pick a descendant to compare this seed with.</p>
        </EmptyState>
      </>
    );
  }

  const { pair, files, summary } = data;
  const { from, to, relation } = pair;
  const selectedFile = typeof file === "string" && files.some((f) => f.path === file) ? file : null;
  const shown = selectedFile ? files.filter((f) => f.path === selectedFile) : files;
  const hops = Math.abs(to.depth - from.depth);
  const base = `/tasks/${task.id}/diff?against=${pair.against.id}`;
  const seedId = lineage.ancestors[0]?.id;

  return (
    <>
      <DiffHeader
        run={lineage.run}
        task={side(task)}
        from={side(from)}
        to={side(to)}
        relation={relationText(relation, hops)}
        controls={
          <>
            {picker(pair.against.id)}
            <ViewToggle />
            <nav aria-label="Related diffs" className="flex items-center gap-3 text-xs">
              {task.parent_id !== null && pair.against.id !== task.parent_id && (
                <DiffLink href={`/tasks/${task.id}/diff`} className="text-accent hover:underline">
                  vs parent
                </DiffLink>
              )}
              {seedId !== undefined && seedId !== pair.against.id && lineage.ancestors.length > 1 && (
                <DiffLink href={`/tasks/${task.id}/diff?against=${seedId}`} className="text-accent hover:underline">
                  Seed → task
                </DiffLink>
              )}
              {lineage.ancestors.length > 0 && (
                <Link href={`/tasks/${task.id}/steps`} className="text-accent hover:underline">
                  Per-round steps
                </Link>
              )}
            </nav>
          </>
        }
      />
      <div className="flex flex-col gap-3">
        <StepSummary summary={summary} title={hops > 1 ? `What ${hops} rounds added` : "What this step added"} />
        <div className="grid items-start gap-3 lg:grid-cols-[220px_minmax(0,1fr)]">
          <DiffFileNav files={files} base={base} selected={selectedFile} />
          <DiffFiles files={shown} from={side(from)} to={side(to)} />
        </div>
      </div>
    </>
  );
}
