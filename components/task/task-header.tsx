import Link from "next/link";
import type { ReactNode } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { LiveReviewBadge, LiveVersion } from "@/components/review/live-review-badge";
import { StatusBadge } from "@/components/ui/badge";
import type { TaskDetailJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";

export type TaskHeaderProps = { task: TaskDetailJson };

function Fact({ label, children, title }: { label: string; children: ReactNode; title?: string }) {
  return (
    <div className="flex items-baseline gap-1.5" title={title}>
      <dt className="text-muted">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

export function TaskHeader({ task }: TaskHeaderProps) {
  const runHref = `/tasks?run=${encodeURIComponent(task.run)}`;
  return (
    <header className="mb-3 flex flex-col gap-2">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-xs text-muted">
        <Link href="/tasks" className="hover:text-fg hover:underline">
          Tasks
        </Link>
        <span aria-hidden="true">/</span>
        <Link href={runHref} className="hover:text-fg hover:underline">
          <VisibleText text={task.run} />
        </Link>
        {task.round !== null && (
          <>
            <span aria-hidden="true">/</span>
            <Link href={`${runHref}&round=${task.round}`} className="hover:text-fg hover:underline">
              round {task.round}
            </Link>
          </>
        )}
      </nav>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="font-mono text-base font-semibold tracking-tight break-all">
          <VisibleText text={task.task_id} />
        </h1>
        <StatusBadge status={task.status} reason={task.rejection_reason} />
        <LiveReviewBadge taskId={task.id} initial={task.review} />
        {task.open_flags > 0 && (
          <span className="rounded bg-warn-soft px-1.5 text-2xs font-medium text-warn">
            {task.open_flags} open flag{task.open_flags === 1 ? "" : "s"}
          </span>
        )}
      </div>
      {task.name && task.name !== task.task_id && (
        <p className="text-[13px] text-muted">
          <VisibleText text={task.name} />
        </p>
      )}
      {task.status === "rejected" && (
        <p className="w-fit rounded-md border border-bad/30 bg-bad-soft px-2.5 py-1 text-xs text-bad">
          Rejected: <VisibleText text={task.rejection_reason ?? "no reason recorded"} />
        </p>
      )}
      <dl className="flex flex-wrap gap-x-5 gap-y-1 text-xs">
        <Fact label="Round">{task.round ?? "—"}</Fact>
        <Fact label="Depth">{task.depth}</Fact>
        <Fact label="Operator">{task.operator ? <VisibleText text={task.operator} /> : "—"}</Fact>
        <Fact label="Category">{task.category ? <VisibleText text={task.category} /> : "—"}</Fact>
        <Fact label="Difficulty" title="Declared in task.toml and inherited from the seed; not a measurement">
          {task.declared_difficulty ? <VisibleText text={task.declared_difficulty} /> : "—"}
          <span className="ml-1 rounded border border-line px-1 text-2xs font-normal text-faint">declared</span>
        </Fact>
        <Fact label="Repairs">{task.repair_attempts}</Fact>
        <Fact label="Version">
          <LiveVersion taskId={task.id} initial={task.version} />
        </Fact>
        {task.created_at && <Fact label="Created">{formatDateTime(task.created_at)}</Fact>}
        <Fact label="Hash">
          <span className="font-mono font-normal text-muted" title={task.content_hash}>
            {task.content_hash.slice(0, 12)}
          </span>
        </Fact>
      </dl>
    </header>
  );
}
