import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { VisibleText } from "@/components/code/visible-text";
import { StepSummary } from "@/components/diff/step-summary";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { parseId } from "@/lib/api/http";
import { requireActor } from "@/lib/auth/page";
import { loadStepReadings, loadTaskTexts } from "@/lib/data/diff";
import { getLineage } from "@/lib/data/read";
import { formatInt } from "@/lib/format/number";
import { sequenceSummary } from "@/lib/diff/summary";

export const metadata: Metadata = { title: "Steps from the seed" };

type Props = { params: Promise<{ id: string }> };

/** Multi-hop: what each round added on the way from the seed to this task, and the whole way at once. */
export default async function StepsPage({ params }: Props) {
  await connection();
  const actor = await requireActor();
  const id = parseId((await params).id);
  if (id === null) notFound();
  const lineage = await getLineage(actor, id, {});
  if (!lineage) notFound();
  const chainNodes = [...lineage.ancestors, lineage.task];
  // What the import read of the chain's files comes in one query, beside the files.
  const [texts, readings] = await Promise.all([
    Promise.all(chainNodes.map((n) => loadTaskTexts(actor, n.id))),
    loadStepReadings(actor, chainNodes.map((n) => n.id)),
  ]);
  const { steps, total } = await sequenceSummary(
    chainNodes.map((n, i) => ({ id: String(n.id), files: texts[i]?.files ?? {}, readings: readings.forSteps(texts[i]?.refs ?? []) })),
  );
  const byId = new Map(chainNodes.map((n) => [String(n.id), n]));
  const task = lineage.task;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-1 flex items-center gap-1.5 text-xs text-muted">
        <Link href={`/tasks/${task.id}`} className="font-mono hover:text-fg hover:underline">
          <VisibleText text={task.task_id} />
        </Link>
        <span aria-hidden="true">/</span>
        <span className="text-fg">Steps from the seed</span>
      </nav>
      <PageHeader title="Steps from the seed" subtitle={`${steps.length} rounds, seed first; each step links to its diff.`} />
      {!total ? (
        <EmptyState title="A seed has no steps">
          <p>This task is a seed: nothing came before it.</p>
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-3">
          <div className="flex items-center gap-3 text-xs">
            <Link href={`/tasks/${task.id}/diff?against=${total.from}`} className="text-accent hover:underline">
              Seed → task as one diff
            </Link>
            <span className="text-muted">
              {formatInt(total.counts.lines_added)} lines added, {formatInt(total.counts.lines_removed)} removed over {steps.length} rounds
            </span>
          </div>
          <StepSummary summary={total.summary} title="Seed → task, all rounds" compact />
          <ol className="flex flex-col gap-3">
            {steps.map((s) => {
              const to = byId.get(s.to);
              return (
                <li key={s.to} className="flex flex-col gap-1">
                  <div className="flex flex-wrap items-center gap-x-3 text-xs">
                    <span className="font-mono text-muted">R{to?.round ?? "?"}</span>
                    <Link href={`/tasks/${s.to}`} className="font-mono hover:underline">
                      <VisibleText text={to?.task_id ?? s.to} />
                    </Link>
                    <span className="text-muted">{to?.operator ? <VisibleText text={to.operator} /> : null}</span>
                    <span className="font-mono text-2xs">
                      <span className="text-ok">+{formatInt(s.counts.lines_added)}</span> <span className="text-bad">−{formatInt(s.counts.lines_removed)}</span>
                    </span>
                    <Link href={`/tasks/${s.to}/diff?against=${s.from}`} className="text-accent hover:underline">
                      diff
                    </Link>
                  </div>
                  <StepSummary summary={s.summary} title={`Round ${to?.round ?? "?"}: ${to?.operator ?? ""}`} compact />
                </li>
              );
            })}
          </ol>
        </div>
      )}
    </>
  );
}
