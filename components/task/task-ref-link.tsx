import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import { StatusBadge } from "@/components/ui/badge";
import type { TaskRefJson } from "@/lib/api/types";

export type TaskRefLinkProps = { task: TaskRefJson };

/** One related task on a line: id, round, operator, status. */
export function TaskRefLink({ task }: TaskRefLinkProps) {
  return (
    <Link href={`/tasks/${task.id}`} className="group grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-2 rounded px-1 py-0.5 hover:bg-surface-2">
      <span className="truncate font-mono text-xs text-accent group-hover:underline" title={task.task_id}>
        <VisibleText text={task.task_id} />
      </span>
      <StatusBadge status={task.status} />
      <span className="col-span-2 truncate text-2xs text-muted">
        {task.round !== null ? `round ${task.round}` : "no round"}
        {task.operator && (
          <>
            {" · "}
            <VisibleText text={task.operator} />
          </>
        )}
      </span>
    </Link>
  );
}
