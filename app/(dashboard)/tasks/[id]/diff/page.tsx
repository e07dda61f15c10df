import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { AgainstPicker } from "@/components/diff/against-picker";
import { DiffFiles } from "@/components/diff/diff-files";
import { DiffHeader } from "@/components/diff/diff-header";
import { DiffFileNav } from "@/components/diff/file-nav";
import { StepSummary } from "@/components/diff/step-summary";
import type { DiffSide } from "@/components/diff/types";
import { ViewToggle } from "@/components/diff/view-toggle";
import { EmptyState } from "@/components/ui/empty-state";
import { parseId } from "@/lib/api/http";
import { requireActor } from "@/lib/auth/page";
import { loadTaskTexts, resolveDiffPair } from "@/lib/data/diff";
import { getLineage, getTask } from "@/lib/data/read";
import { buildDiffPayload } from "./payload";
import { stepSummary } from "@/lib/diff/summary";

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
  const { against, file, view } = await searchParams;
  const againstId = typeof against === "string" ? parseId(against) : null;
  if (typeof against === "string" && againstId === null) notFound();

  const [resolved, lineage] = await Promise.all([
    resolveDiffPair(actor, id, againstId),
    getLineage(actor, id, { descendants: true, maxDepth: 3, limit: 300 }),
  ]);
  if (!resolved.ok && resolved.reason !== "no-parent") notFound();
  const task = resolved.ok ? resolved.pair.task : await getTask(actor, id);
  if (!task || !lineage) notFound();

  const picker = (current: number) => (
    <AgainstPicker taskId={task.id} current={current} ancestors={lineage.ancestors} descendants={lineage.descendants} />
  );
  if (!resolved.ok) {
    return (
      <>
        <DiffHeader run={task.run} task={side(task)} from={null} to={null} relation={null} controls={lineage.descendants.length > 0 ? picker(0) : null} />
        <EmptyState title="A seed has no parent">
          <p>Pick a descendant to compare this seed with.</p>
        </EmptyState>
      </>
    );
  }

  const { from, to, relation } = resolved.pair;
  const [a, b] = await Promise.all([loadTaskTexts(actor, from.id), loadTaskTexts(actor, to.id)]);
  const binary = new Set([...a.binary, ...b.binary]);
  const files = await buildDiffPayload(a.files, b.files, binary);
  const summary = await stepSummary(a.files, b.files);
  const selectedFile = typeof file === "string" && files.some((f) => f.path === file) ? file : null;
  const shown = selectedFile ? files.filter((f) => f.path === selectedFile) : files;
  const hops = Math.abs(to.depth - from.depth);
  const base = `/tasks/${task.id}/diff?against=${resolved.pair.against.id}${view === "split" ? "&view=split" : ""}`;
  const seedId = lineage.ancestors[0]?.id;

  return (
    <>
      <DiffHeader
        run={task.run}
        task={side(task)}
        from={side(from)}
        to={side(to)}
        relation={relationText(relation, hops)}
        controls={
          <>
            {picker(resolved.pair.against.id)}
            <ViewToggle />
            <nav aria-label="Related diffs" className="flex items-center gap-3 text-xs">
              {task.parent_id !== null && resolved.pair.against.id !== task.parent_id && (
                <Link href={`/tasks/${task.id}/diff`} className="text-accent hover:underline">
                  vs parent
                </Link>
              )}
              {seedId !== undefined && seedId !== resolved.pair.against.id && lineage.ancestors.length > 1 && (
                <Link href={`/tasks/${task.id}/diff?against=${seedId}`} className="text-accent hover:underline">
                  Seed → task
                </Link>
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
