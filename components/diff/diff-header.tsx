import Link from "next/link";
import type { ReactNode } from "react";
import { VisibleText } from "@/components/code/visible-text";
import type { DiffSide } from "./types";

export type DiffHeaderProps = {
  run: string;
  task: DiffSide;
  from: DiffSide | null;
  to: DiffSide | null;
  relation: string | null;
  controls: ReactNode;
};

function Side({ side, tone }: { side: DiffSide; tone: "old" | "new" }) {
  return (
    <Link
      href={`/tasks/${side.id}`}
      className={`inline-flex items-center gap-1.5 rounded border px-1.5 py-0.5 font-mono text-[13px] hover:underline ${
        tone === "old" ? "border-bad/30 bg-bad-soft/60" : "border-ok/30 bg-ok-soft/60"
      }`}
    >
      <span className="text-2xs text-muted">R{side.round ?? "?"}</span>
      <VisibleText text={side.task_id} />
    </Link>
  );
}

export function DiffHeader({ run, task, from, to, relation, controls }: DiffHeaderProps) {
  return (
    <header className="mb-3 flex flex-col gap-2">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-xs text-muted">
        <Link href="/tasks" className="hover:text-fg hover:underline">
          Tasks
        </Link>
        <span aria-hidden="true">/</span>
        <Link href={`/tasks?run=${encodeURIComponent(run)}`} className="hover:text-fg hover:underline">
          <VisibleText text={run} />
        </Link>
        <span aria-hidden="true">/</span>
        <Link href={`/tasks/${task.id}`} className="font-mono hover:text-fg hover:underline">
          <VisibleText text={task.task_id} />
        </Link>
        <span aria-hidden="true">/</span>
        <span className="text-fg">Diff</span>
      </nav>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-base font-semibold tracking-tight">Diff</h1>
        {from && to && (
          <>
            <Side side={from} tone="old" />
            <span aria-label="to" className="text-muted">
              →
            </span>
            <Side side={to} tone="new" />
          </>
        )}
        {relation && <span className="text-xs text-muted">{relation}</span>}
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">{controls}</div>
    </header>
  );
}
