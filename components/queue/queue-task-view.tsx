"use client";

import { StepSummary } from "@/components/diff/step-summary";
import { InstructionCard } from "@/components/task/instruction-card";
import { TrialsSection } from "@/components/trials/trials-section";
import type { QueueTaskJson } from "@/lib/api/types";
import { ParentDiff } from "./parent-diff";

export type QueueTaskViewProps = { item: QueueTaskJson };

/** The body of the review screen: what the step added (the five-second question), the instruction, the parent diff, the trials. */
export function QueueTaskView({ item }: QueueTaskViewProps) {
  const { task, diff } = item;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      {diff ? (
        <StepSummary summary={diff.summary} title={`What this step added (from ${diff.from.task_id})`} compact />
      ) : (
        <p className="rounded-lg border border-line bg-surface px-3 py-2 text-xs text-faint">A seed: no parent to compare with.</p>
      )}
      <InstructionCard taskId={task.id} path={item.instruction === null ? null : "instruction.md"} source={item.instruction} />
      {diff && <ParentDiff queueId={item.queue_id} taskId={task.id} diff={diff} />}
      <TrialsSection taskId={task.id} trials={item.trials} />
    </div>
  );
}
