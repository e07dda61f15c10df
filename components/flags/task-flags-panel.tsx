"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { DateText } from "@/components/admin/date-text";
import type { FlagJson } from "@/lib/api/types";
import { taskFlagsQuery } from "@/lib/query/flags";
import { EvidenceLink } from "./evidence-link";
import { type Closing, FlagActions, FlagReasonForm } from "./flag-actions";
import { FlagStatusBadge, RuleName, SeverityDot } from "./flag-badges";
import { FlagButton } from "./flag-button";

export type TaskFlagsPanelProps = {
  taskId: number;
  /** Reviewers and admins raise, resolve and dismiss; viewers read. */
  canFlag: boolean;
};

/** The task's flags (open first, then outdated and closed), each with its evidence; and "Flag…". */
export function TaskFlagsPanel({ taskId, canFlag }: TaskFlagsPanelProps) {
  const flags = useQuery(taskFlagsQuery(taskId));
  const items = flags.data?.items ?? [];
  const live = items.filter((f) => f.status === "open" && !f.outdated);
  const rest = items.filter((f) => !(f.status === "open" && !f.outdated));
  return (
    <section id="flags" aria-label="Flags" className="scroll-mt-14 rounded-lg border border-line bg-surface">
      <header className="flex h-9 items-center gap-2 border-b border-line px-3">
        <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">Flags</h2>
        <span className="truncate font-mono text-2xs text-faint" title={`${live.length} open on this revision; ${rest.length} closed or outdated`}>
          {live.length} open{rest.length > 0 && ` · ${rest.length} other`}
        </span>
        {canFlag && <FlagButton taskId={taskId} hotkey className="ml-auto inline-flex h-6 shrink-0 items-center gap-1 rounded px-1.5 text-xs whitespace-nowrap text-muted hover:bg-surface-2 hover:text-fg" />}
      </header>
      {flags.isError ? (
        <p className="px-3 py-2 text-xs text-bad">Could not load the flags: {flags.error.message}</p>
      ) : flags.isPending ? (
        <p className="px-3 py-2 text-xs text-faint">Loading…</p>
      ) : items.length === 0 ? (
        <p className="px-3 py-2 text-xs text-faint">No flags on this task.</p>
      ) : (
        <ul>
          {[...live, ...rest].map((f) => (
            <TaskFlagItem key={f.id} flag={f} canFlag={canFlag} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TaskFlagItem({ flag: f, canFlag }: { flag: FlagJson; canFlag: boolean }) {
  const [closing, setClosing] = useState<Closing | null>(null);
  const quiet = f.status !== "open" || f.outdated;
  return (
    <li className={`flex flex-col gap-1 border-t border-line px-3 py-2 text-xs first:border-t-0 ${quiet ? "opacity-70" : ""}`} data-flag={f.id}>
      <div className="flex min-w-0 items-center gap-2">
        <SeverityDot severity={f.severity} />
        <RuleName rule={f.rule} />
        <FlagStatusBadge flag={f} />
        <span className="ml-auto">
          <DateText iso={f.created_at} />
        </span>
      </div>
      <p className="break-words text-fg">
        <VisibleText text={f.message} />
      </p>
      <div className="flex min-w-0 items-center gap-2 text-2xs">
        <EvidenceLink flag={f} />
        <span className="ml-auto shrink-0 text-faint">{f.source === "manual" ? (f.created_by ?? "someone") : "auto"}</span>
      </div>
      {f.resolution && (
        <p className="text-2xs text-muted">
          {f.status} by {f.resolved_by ?? "someone"}: <VisibleText text={f.resolution} />
        </p>
      )}
      {canFlag && (
        <div className="-ml-1.5">
          <FlagActions flag={f} closing={closing} onClosing={setClosing} />
        </div>
      )}
      {canFlag && closing && <FlagReasonForm flag={f} closing={closing} onDone={() => setClosing(null)} />}
    </li>
  );
}
