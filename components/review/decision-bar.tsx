"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { buttonClass, dangerButtonClass, FormError, selectClass } from "@/components/auth/form-controls";
import { useHotkeys } from "@/components/shell/use-hotkeys";
import { Kbd } from "@/components/ui/kbd";
import type { ReviewStateJson } from "@/lib/api/types";
import { REJECT_REASONS, type RejectReason, type ReviewDecision } from "@/lib/domain";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { conflictState, reviewKeys } from "@/lib/query/reviews";
import { taskKeys, taskQuery } from "@/lib/query/tasks";
import { ConflictNotice } from "./conflict-notice";
import { useDecide, type SendDecision } from "./use-decide";
import { useReviewDraft } from "./use-review-draft";

export type DecisionBarProps = {
  taskId: number;
  /** The version the page was rendered with; the query cache follows later decisions. */
  initialVersion: number;
  /** Queue mode: called once a decision is recorded (the queue moves on to the next task). */
  onDecided?: (state: ReviewStateJson, decision: ReviewDecision) => void;
  /** Queue mode: Skip passes the task to the other reviewers instead of recording a skip decision. */
  onSkip?: () => void;
  /** Queue mode: the decision goes with the request for the next task (see useQueueSession). */
  send?: SendDecision;
};


/**
 * Accept, reject (with a reason), needs-changes or skip, by button or by key (`a`, `r`, `n`, `s`,
 * never while typing). One request at a time; a stale page is told the newer state, not overwritten.
 */
export function DecisionBar({ taskId, initialVersion, onDecided, onSkip, send }: DecisionBarProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // The version on screen: every decision is based on it.
  const version = useQuery(taskQuery(taskId)).data?.version ?? initialVersion;
  const { note, setNote, clear } = useReviewDraft(taskId, version);
  const { decide, pending, error, data, reset } = useDecide(taskId, send);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState<RejectReason | "">("");
  const [reloading, setReloading] = useState(false);
  const conflict = conflictState(error);

  const submit = (decision: ReviewDecision) => {
    if (decision === "reject" && !reason) return;
    if (decision === "skip" && onSkip) {
      if (!pending) onSkip();
      return;
    }
    decide(
      { decision, reason: decision === "reject" && reason ? reason : undefined, note: note.trim() || undefined, base_version: version },
      (state) => {
        clear();
        setRejecting(false);
        setReason("");
        onDecided?.(state, decision);
      },
    );
  };

  const reload = async () => {
    setReloading(true);
    try {
      await invalidateAfterWrite(queryClient, { queryKey: taskKeys.detail(taskId) }, { queryKey: reviewKeys.history(taskId) });
      // The files may have changed too (a re-import): the server parts of the page follow.
      router.refresh();
      reset();
    } finally {
      setReloading(false);
    }
  };

  // `g a` and `g r` navigate (components/shell/shortcuts.tsx): the second key of a `g` sequence
  // must never decide, whichever listener hears it first.
  const afterG = useRef(0);
  const unlessNavigating = (action: (e: KeyboardEvent) => void) => (e: KeyboardEvent) => {
    const navigating = Date.now() - afterG.current <= 1000;
    afterG.current = 0;
    if (!navigating) action(e);
  };
  useHotkeys({
    g: () => {
      afterG.current = Date.now();
    },
    a: unlessNavigating(() => submit("accept")),
    n: unlessNavigating(() => submit("needs-changes")),
    s: unlessNavigating(() => submit("skip")),
    r: unlessNavigating((e) => {
      // The key must not also land in the reason menu that takes the focus.
      e.preventDefault();
      setRejecting(true);
    }),
  });

  return (
    <section aria-label="Decision" className="flex flex-col gap-2 rounded-lg border border-line bg-surface px-3 py-2.5">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="mr-1 text-2xs font-semibold tracking-wide text-muted uppercase">Decide</h2>
        <DecisionButton label="Accept" shortcut="a" className={acceptButtonClass} disabled={pending} onClick={() => submit("accept")} />
        <DecisionButton label="Reject…" shortcut="r" className={dangerButtonClass} disabled={pending} pressed={rejecting} onClick={() => setRejecting((v) => !v)} />
        <DecisionButton label="Needs changes" shortcut="n" className={buttonClass} disabled={pending} onClick={() => submit("needs-changes")} />
        <DecisionButton label="Skip" shortcut="s" className={buttonClass} disabled={pending} onClick={() => submit("skip")} />
        <span role="status" className="text-2xs text-muted">
          {pending ? "Saving…" : data ? `Saved: ${data.review}, now version ${data.version}.` : `On version ${version}.`}
        </span>
      </div>
      {rejecting && (
        <form
          aria-label="Reject"
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            submit("reject");
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") setRejecting(false);
          }}
        >
          <label className="flex items-center gap-1.5 text-xs text-muted">
            Reason
            <select autoFocus required value={reason} onChange={(e) => setReason(e.target.value as RejectReason | "")} className={selectClass}>
              <option value="">Choose a reason…</option>
              {REJECT_REASONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={dangerButtonClass} disabled={pending || !reason}>
            Reject with this reason
          </button>
          <button type="button" className={buttonClass} onClick={() => setRejecting(false)}>
            Cancel
          </button>
        </form>
      )}
      <label className="flex flex-col gap-0.5 text-2xs text-muted">
        Note (kept as a draft until you decide)
        <textarea
          value={note}
          onChange={(e) => setNote(e.target.value)}
          rows={2}
          maxLength={10_000}
          placeholder="What a reader of the history should know (optional)"
          className="min-h-12 w-full resize-y rounded-md border border-line bg-surface px-2 py-1 text-[13px] text-fg placeholder:text-faint hover:border-line-strong"
        />
      </label>
      {conflict ? (
        <ConflictNotice seen={version} current={conflict} onReload={() => void reload()} reloading={reloading} />
      ) : (
        <FormError message={error?.message} />
      )}
    </section>
  );
}

const acceptButtonClass =
  "inline-flex h-7 items-center justify-center gap-1 rounded-md border border-ok/40 bg-ok-soft px-2.5 text-xs font-medium whitespace-nowrap text-ok hover:border-ok disabled:cursor-not-allowed disabled:opacity-50";

type DecisionButtonProps = {
  label: string;
  shortcut: string;
  className: string;
  disabled: boolean;
  pressed?: boolean;
  onClick: () => void;
};

/**
 * The second click of a double click (`detail` 2 and up) is dropped: one gesture, one decision,
 * however fast the first one's request comes back. Keyboard activation has `detail` 0.
 */
function DecisionButton({ label, shortcut, className, disabled, pressed, onClick }: DecisionButtonProps) {
  return (
    <button
      type="button"
      className={className}
      disabled={disabled}
      aria-pressed={pressed}
      aria-keyshortcuts={shortcut}
      onClick={(event) => {
        if (event.detail <= 1) onClick();
      }}
    >
      {label}
      <span aria-hidden="true">
        <Kbd>{shortcut}</Kbd>
      </span>
    </button>
  );
}
