import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CheckKind } from "@/lib/domain";

export type LogHeaderProps = {
  taskId: number | null;
  taskExtId: string | null;
  trialExtId: string;
  check: CheckKind;
  name: string;
};

const CHECK_LABEL: Record<CheckKind, [label: string, tone: BadgeTone]> = {
  oracle: ["oracle", "accent"],
  nop: ["no-op", "neutral"],
  "parent-solution": ["parent solution", "info"],
  repeat: ["repeat", "neutral"],
  agent: ["agent", "warn"],
};

/** Where the log comes from: task → trial → log, with the check the trial ran. */
export function LogHeader({ taskId, taskExtId, trialExtId, check, name }: LogHeaderProps) {
  const [label, tone] = CHECK_LABEL[check];
  const taskText = <VisibleText text={taskExtId ?? "unmatched task"} />;
  return (
    <header className="flex flex-col gap-1.5">
      <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1.5 text-xs text-muted">
        <Link href="/tasks" className="hover:text-fg hover:underline">
          Tasks
        </Link>
        <span aria-hidden="true">/</span>
        {taskId !== null ? (
          <Link href={`/tasks/${taskId}`} className="truncate font-mono hover:text-fg hover:underline">
            {taskText}
          </Link>
        ) : (
          <span className="truncate font-mono">{taskText}</span>
        )}
        <span aria-hidden="true">/</span>
        <span className="truncate font-mono">
          <VisibleText text={trialExtId} />
        </span>
      </nav>
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <h1 className="font-mono text-base font-semibold tracking-tight break-all">
          <VisibleText text={name} />
        </h1>
        <Badge tone={tone} title="Check the trial ran">
          {label}
        </Badge>
        <span className="text-xs text-muted">
          trial <span className="font-mono">
            <VisibleText text={trialExtId} />
          </span>
        </span>
      </div>
    </header>
  );
}
