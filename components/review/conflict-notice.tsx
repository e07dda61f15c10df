"use client";

import { buttonClass } from "@/components/auth/form-controls";
import { VisibleText } from "@/components/code/visible-text";
import { ReviewBadge } from "@/components/ui/badge";
import type { ReviewStateJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";

export type ConflictNoticeProps = {
  /** The version the refused decision was based on. */
  seen: number;
  current: ReviewStateJson;
  onReload: () => void;
  reloading: boolean;
};

/** A decision made on a stale page: what the task is now, and a way to look at it before deciding again. */
export function ConflictNotice({ seen, current, onReload, reloading }: ConflictNoticeProps) {
  const last = current.last_review;
  return (
    <div role="alert" className="flex flex-col gap-1.5 rounded-md border border-warn/40 bg-warn-soft px-3 py-2 text-xs text-fg">
      <p className="font-medium text-warn">Not saved: this task changed while you were looking at it.</p>
      <p className="flex flex-wrap items-center gap-1.5">
        You saw version {seen}; it is now at version {current.version}, <ReviewBadge review={current.review} />
        {last && (
          <span>
            — last decision <strong>{last.decision}</strong>
            {last.reason && <> ({last.reason})</>} by <VisibleText text={last.by ?? "unknown"} /> at {formatDateTime(last.at)}.
          </span>
        )}
      </p>
      <div>
        <button type="button" className={buttonClass} onClick={onReload} disabled={reloading}>
          {reloading ? "Loading…" : "Load the newer state"}
        </button>
      </div>
    </div>
  );
}
