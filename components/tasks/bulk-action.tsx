"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { buttonClass } from "@/components/auth/form-controls";
import type { BulkResultJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { taskKeys } from "@/lib/query/tasks";
import { BulkDialog } from "./bulk-dialog";

export type BulkActionProps = {
  /** The task table's query string. */
  search: string;
  /** False when the filter has no condition: a bulk action on every task is not offered. */
  enabled: boolean;
};

/** The toolbar's "Bulk…" button, its dialog, and a toast saying what changed. */
export function BulkAction({ search, enabled }: BulkActionProps) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<BulkResultJson | null>(null);

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(null), 10_000);
    return () => clearTimeout(t);
  }, [done]);

  return (
    <>
      <button
        type="button"
        disabled={!enabled}
        title={enabled ? "One decision for every task this filter matches" : "Filter the table first: a bulk action needs at least one condition"}
        onClick={() => setOpen(true)}
        className={buttonClass}
      >
        Bulk…
      </button>
      {open && (
        <BulkDialog
          search={search}
          onClose={() => setOpen(false)}
          onDone={(result) => {
            setOpen(false);
            setDone(result);
            void invalidateAfterWrite(queryClient, { queryKey: taskKeys.all }, { queryKey: ["views"] });
          }}
        />
      )}
      {done && (
        <div role="status" className="fixed right-4 bottom-4 z-50 flex max-w-sm items-start gap-3 rounded-lg border border-ok/40 bg-surface px-3 py-2 text-xs shadow-lg">
          <p>
            <span className="font-medium text-ok">{done.replayed ? "Already applied: " : "Done: "}</span>
            {formatInt(done.count)} task{done.count === 1 ? "" : "s"} now <strong>{done.review}</strong>
            {done.reason && <> ({done.reason})</>}.
          </p>
          <button type="button" onClick={() => setDone(null)} className="text-muted hover:text-fg" aria-label="Dismiss">
            ✕
          </button>
        </div>
      )}
    </>
  );
}
