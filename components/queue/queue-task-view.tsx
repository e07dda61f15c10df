"use client";

import Link from "next/link";
import { DiffFiles } from "@/components/diff/diff-files";
import { StepSummary } from "@/components/diff/step-summary";
import { InstructionCard } from "@/components/task/instruction-card";
import { TrialsSection } from "@/components/trials/trials-section";
import type { QueueTaskJson } from "@/lib/api/types";

export type QueueTaskViewProps = { item: QueueTaskJson };

/** The body of the review screen: what the step added (the five-second question), the instruction, the parent diff, the trials. */
export function QueueTaskView({ item }: QueueTaskViewProps) {
  const { task, diff } = item;
  const changed = diff ? diff.files.filter((f) => f.status !== "unchanged") : [];
  return (
    <div className="flex min-w-0 flex-col gap-4">
      {diff ? (
        <StepSummary summary={diff.summary} title={`What this step added (from ${diff.from.task_id})`} compact />
      ) : (
        <p className="rounded-lg border border-line bg-surface px-3 py-2 text-xs text-faint">A seed: no parent to compare with.</p>
      )}
      <InstructionCard taskId={task.id} path={item.instruction === null ? null : "instruction.md"} source={item.instruction} />
      {diff && (
        <section aria-label="Step from the parent" className="flex flex-col gap-2">
          <details className="rounded-lg border border-line bg-surface" open={changed.length <= 4}>
            <summary className="cursor-pointer px-3 py-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">
              Parent diff · {changed.length} changed file{changed.length === 1 ? "" : "s"}
              <Link href={`/tasks/${task.id}/diff`} className="ml-3 font-normal tracking-normal normal-case text-accent hover:underline">
                Open the diff page
              </Link>
            </summary>
            <div className="border-t border-line p-2">
              {changed.length === 0 ? (
                <p className="px-1 py-2 text-xs text-faint">No file changed.</p>
              ) : (
                <DiffFiles files={changed} from={diff.from} to={diff.to} />
              )}
            </div>
          </details>
        </section>
      )}
      <TrialsSection taskId={task.id} trials={item.trials} />
    </div>
  );
}
