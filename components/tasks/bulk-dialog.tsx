"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { buttonClass, dangerButtonClass, Field, FormError, inputClass, primaryButtonClass, selectClass } from "@/components/auth/form-controls";
import { ReviewBadge } from "@/components/ui/badge";
import { DialogTitleBar } from "@/components/ui/dialog-title-bar";
import { MODAL_CLASS, useModalOnMount } from "@/components/ui/modal";
import type { BulkPreviewJson, BulkResultJson } from "@/lib/api/types";
import { REJECT_REASONS, REVIEW_DECISIONS, type RejectReason, type ReviewDecision } from "@/lib/domain";
import { formatInt } from "@/lib/format/number";
import { applyBulk, changedCount, previewBulk } from "@/lib/query/bulk";

const DECISION_LABEL: Record<ReviewDecision, string> = { accept: "Accept", reject: "Reject", "needs-changes": "Needs changes", skip: "Skip" };

export type BulkDialogProps = {
  /** The task table's query string: the server matches every task of this filter, not the page. */
  search: string;
  onClose: () => void;
  onDone: (result: BulkResultJson) => void;
};

const newKey = () => `ui-${crypto.randomUUID()}`;

/**
 * Counts what the filter matches, then applies one decision to exactly that many tasks. The
 * confirm button says the count; if the set changed meanwhile the server refuses (409) and the
 * new count is shown to confirm again. One idempotency key per form: a double click applies once.
 */
export function BulkDialog({ search, onClose, onDone }: BulkDialogProps) {
  const dialogRef = useModalOnMount();
  const [decision, setDecision] = useState<ReviewDecision>("reject");
  const [reason, setReason] = useState<RejectReason | "">("");
  const [note, setNote] = useState("");
  const [key, setKey] = useState(newKey);
  const [confirmed, setConfirmed] = useState<BulkPreviewJson | null>(null);
  const [changed, setChanged] = useState<{ from: number; to: number } | null>(null);
  // The ref, not the re-render, stops the second click of a double click.
  const inFlight = useRef(false);

  const preview = useQuery({
    queryKey: ["bulk-preview", search],
    queryFn: () => previewBulk(search, { decision: "skip" }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const shown = confirmed ?? preview.data ?? null;

  const apply = useMutation({
    mutationFn: (count: number) =>
      applyBulk(search, { decision, reason: decision === "reject" && reason ? reason : undefined, note: note.trim() || undefined }, count, key),
    onSuccess: (result) => onDone(result),
    onSettled: () => {
      inFlight.current = false;
    },
    onError: (err) => {
      const fresh = changedCount(err);
      if (fresh && shown) {
        setChanged({ from: shown.count, to: fresh.count });
        setConfirmed(fresh);
      }
    },
  });

  // Another form is another action: a new key, so that it is not taken for a repeat.
  const edit = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setKey(newKey());
    apply.reset();
  };

  const needsReason = decision === "reject" && !reason;
  const count = shown?.count ?? 0;
  const canApply = shown !== null && count > 0 && !needsReason && !apply.isPending && !apply.isSuccess;
  const error = apply.error && !changedCount(apply.error) ? apply.error.message : preview.error?.message;

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="bulk-title"
      onClose={onClose}
      className={`w-[30rem] ${MODAL_CLASS}`}
    >
      <form
        method="dialog"
        className="flex flex-col gap-3 px-4 py-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!canApply || inFlight.current) return;
          inFlight.current = true;
          apply.mutate(count);
        }}
      >
        <DialogTitleBar id="bulk-title" title="Bulk decision" onClose={() => dialogRef.current?.close()} />

        <section aria-label="Matching tasks" aria-live="polite" className="flex flex-col gap-1 rounded-md border border-line bg-surface-2 px-3 py-2 text-xs">
          {shown ? (
            <>
              <p className="text-[13px]">
                <strong data-testid="bulk-count">{formatInt(count)}</strong> task{count === 1 ? "" : "s"} match this filter
                <span className="text-muted"> — every match, not only this page.</span>
              </p>
              {shown.by_review.length > 0 && (
                <p className="flex flex-wrap items-center gap-1.5 text-muted">
                  Now:
                  {shown.by_review.map((r) => (
                    <span key={r.review} className="inline-flex items-center gap-1">
                      <ReviewBadge review={r.review} /> {formatInt(r.count)}
                    </span>
                  ))}
                </p>
              )}
              <p className="truncate font-mono text-2xs text-faint" title={shown.filter}>
                {shown.filter}
              </p>
            </>
          ) : (
            <p className="text-muted">{preview.isError ? "Could not count the matching tasks." : "Counting matching tasks…"}</p>
          )}
        </section>

        {changed && (
          <p role="alert" className="rounded-md border border-warn/40 bg-warn-soft px-2.5 py-1.5 text-xs text-fg">
            <span className="font-medium text-warn">Nothing changed yet:</span> the filter matched {formatInt(changed.from)} tasks when you opened this, and
            matches {formatInt(changed.to)} now. Check the count and confirm again.
          </p>
        )}

        <div className="flex flex-wrap items-end gap-3">
          <Field label="Decision">
            {(id) => (
              <select id={id} value={decision} onChange={(e) => edit(setDecision)(e.target.value as ReviewDecision)} className={selectClass}>
                {REVIEW_DECISIONS.map((d) => (
                  <option key={d} value={d}>
                    {DECISION_LABEL[d]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {decision === "reject" && (
            <Field label="Reason">
              {(id) => (
                <select id={id} value={reason} onChange={(e) => edit(setReason)(e.target.value as RejectReason | "")} className={selectClass} required>
                  <option value="">Choose a reason…</option>
                  {REJECT_REASONS.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
        </div>
        <Field label="Note (optional)">
          {(id) => <textarea id={id} value={note} onChange={(e) => edit(setNote)(e.target.value)} rows={2} maxLength={10_000} className={`${inputClass} h-auto py-1`} />}
        </Field>

        <FormError message={error} />

        <div className="flex items-center justify-end gap-2 border-t border-line pt-3">
          <button type="button" onClick={() => dialogRef.current?.close()} className={buttonClass}>
            Cancel
          </button>
          <button type="submit" disabled={!canApply} className={decision === "reject" ? dangerButtonClass : primaryButtonClass}>
            {apply.isPending ? "Applying…" : `${DECISION_LABEL[decision]} ${formatInt(count)} task${count === 1 ? "" : "s"}`}
          </button>
        </div>
      </form>
    </dialog>
  );
}
