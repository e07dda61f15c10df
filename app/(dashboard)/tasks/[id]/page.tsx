import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { TaskFlagsPanel } from "@/components/flags/task-flags-panel";
import { DecisionBar } from "@/components/review/decision-bar";
import { ReviewHistoryPanel } from "@/components/review/review-history-panel";
import { EvalsPanel } from "@/components/task/evals-panel";
import { FileList } from "@/components/task/file-list";
import { FilePanel } from "@/components/task/file-panel";
import { InstructionCard } from "@/components/task/instruction-card";
import { parseNodeParam } from "@/components/lineage/node-param";
import { LineagePanel } from "@/components/task/lineage-panel";
import { MetadataPanel } from "@/components/task/metadata-panel";
import { MetricsStrip } from "@/components/task/metrics-strip";
import { TaskHeader } from "@/components/task/task-header";
import { requireActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { TrialsSection } from "@/components/trials/trials-section";
import { getLineage, getTask, getTaskFile } from "@/lib/data/read";
import { listTaskFlags } from "@/lib/data/flags";
import { listReviews } from "@/lib/data/reviews";
import { listTaskTrials } from "@/lib/data/trials";
import { flagKeys } from "@/lib/query/flags";
import { getServerQueryClient } from "@/lib/query/server";
import { lineageKeys, TASK_LINEAGE } from "@/lib/query/lineage";
import { reviewKeys } from "@/lib/query/reviews";
import { taskKeys } from "@/lib/query/tasks";
import { highlightCode } from "@/lib/text/highlight";
import { languageForPath, languageLabel } from "@/lib/text/language";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** Shared by generateMetadata and the page within one request. */
const loadTask = cache(async (raw: string) => {
  const id = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(id)) return null;
  return getTask(await requireActor(), id);
});

/** The file a reviewer most often wants first. */
const PREFERRED = ["solution/solve.sh", "tests/test.sh", "instruction.md"];
const INSTRUCTION = "instruction.md";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  await connection();
  const task = await loadTask((await params).id);
  return { title: task ? task.task_id : "Task not found" };
}

export default async function TaskPage({ params, searchParams }: Props) {
  await connection();
  const task = await loadTask((await params).id);
  if (!task) notFound();
  const { file, node } = await searchParams;
  const paths = task.files.map((f) => f.path);
  const selected =
    typeof file === "string" && paths.includes(file) ? file : (PREFERRED.find((p) => paths.includes(p)) ?? paths[0] ?? null);

  const actor = await requireActor();
  const [instruction, content, lineage, trials, reviews, flags] = await Promise.all([
    paths.includes(INSTRUCTION) ? getTaskFile(actor, task.id, INSTRUCTION) : null,
    selected ? getTaskFile(actor, task.id, selected) : null,
    getLineage(actor, task.id, { descendants: true, maxDepth: TASK_LINEAGE.depth, limit: TASK_LINEAGE.limit }),
    listTaskTrials(actor, task.id),
    listReviews(actor, task.id),
    listTaskFlags(actor, task.id),
  ]);
  const lang = content ? languageForPath(content.path, content.encoding === "utf8" ? content.content.slice(0, 200).split("\n")[0] : undefined) : null;
  const code = content && content.encoding === "utf8" ? await highlightCode(content.content, lang) : null;

  // Seed the client cache so client components added to this page start with the task.
  const queryClient = getServerQueryClient();
  queryClient.setQueryData(taskKeys.detail(task.id), task);
  if (lineage) queryClient.setQueryData(lineageKeys.subtree(task.id, TASK_LINEAGE), lineage);
  queryClient.setQueryData(reviewKeys.history(task.id), { items: reviews });
  queryClient.setQueryData(flagKeys.task(task.id), { items: flags });

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TaskHeader task={task} />
      <MetricsStrip task={task} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_280px] xl:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex min-w-0 flex-col gap-4">
          {/* Viewers see the history only; the API refuses their decisions anyway. */}
          {can(actor.role, "review") && <DecisionBar taskId={task.id} initialVersion={task.version} />}
          <LineagePanel task={task} initialNode={parseNodeParam(node)} />
          <TrialsSection taskId={task.id} trials={trials ?? []} />
          <InstructionCard
            taskId={task.id}
            path={instruction ? INSTRUCTION : null}
            source={instruction && instruction.encoding === "utf8" ? instruction.content : null}
          />
          <section id="files" aria-label="Files" className="scroll-mt-14 overflow-hidden rounded-lg border border-line bg-surface">
            {task.files.length === 0 ? (
              <p className="px-4 py-6 text-xs text-faint">No files stored for this task.</p>
            ) : (
              <div className="grid md:grid-cols-[240px_minmax(0,1fr)] md:[&>nav]:max-h-none">
                <FileList taskId={task.id} files={task.files} selected={selected} />
                {content && (
                  <FilePanel
                    taskId={task.id}
                    path={content.path}
                    size={content.size}
                    hash={content.hash}
                    language={languageLabel(lang)}
                    code={code}
                  />
                )}
              </div>
            )}
          </section>
        </div>
        <aside className="flex flex-col gap-4">
          <TaskFlagsPanel taskId={task.id} canFlag={can(actor.role, "flag")} />
          <ReviewHistoryPanel taskId={task.id} initialContentHash={task.content_hash} />
          <EvalsPanel evals={task.evals} />
          <MetadataPanel metadata={task.metadata} />
        </aside>
      </div>
    </HydrationBoundary>
  );
}
