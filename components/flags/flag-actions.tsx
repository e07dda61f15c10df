"use client";

import { useId, useState } from "react";
import { buttonClass, FormError, inputClass, linkButtonClass } from "@/components/auth/form-controls";
import { Kbd } from "@/components/ui/kbd";
import type { FlagJson } from "@/lib/api/types";
import { useSetFlagStatus } from "./use-flag-mutations";

/** The closing a reviewer is writing a reason for. */
export type Closing = "resolved" | "dismissed";

export type FlagActionsProps = {
  flag: FlagJson;
  /** Which reason form is open (controlled, so that `e` and `d` on a list can open it). */
  closing: Closing | null;
  onClosing: (c: Closing | null) => void;
  /** Show the keys next to the buttons (on the selected row of a list). */
  keys?: boolean;
};

/** Resolve or dismiss (each asks for a reason), or reopen a closed flag. */
export function FlagActions({ flag, closing, onClosing, keys = false }: FlagActionsProps) {
  const change = useSetFlagStatus();
  if (flag.status !== "open") {
    return (
      <button type="button" className={linkButtonClass} disabled={change.isPending} onClick={() => change.mutate({ id: flag.id, change: { status: "open" } })}>
        Reopen
      </button>
    );
  }
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap">
      <button type="button" className={`${linkButtonClass} inline-flex items-center gap-1`} aria-expanded={closing === "resolved"} aria-keyshortcuts={keys ? "e" : undefined} onClick={() => onClosing(closing === "resolved" ? null : "resolved")}>
        Resolve{keys && <Kbd>e</Kbd>}
      </button>
      <button type="button" className={`${linkButtonClass} inline-flex items-center gap-1`} aria-expanded={closing === "dismissed"} aria-keyshortcuts={keys ? "d" : undefined} onClick={() => onClosing(closing === "dismissed" ? null : "dismissed")}>
        Dismiss{keys && <Kbd>d</Kbd>}
      </button>
    </span>
  );
}

export type FlagReasonFormProps = { flag: FlagJson; closing: Closing; onDone: () => void };

/** Why the flag is resolved or dismissed: required, Enter saves, Escape cancels. */
export function FlagReasonForm({ flag, closing, onDone }: FlagReasonFormProps) {
  const [reason, setReason] = useState("");
  const change = useSetFlagStatus();
  const id = useId();
  const verb = closing === "resolved" ? "Resolve" : "Dismiss";
  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim() === "") return;
        change.mutate({ id: flag.id, change: { status: closing, reason: reason.trim() } }, { onSuccess: onDone });
      }}
    >
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="shrink-0 text-2xs text-muted">
          {closing === "resolved" ? "What fixed it" : "Why it is not a problem"}
        </label>
        <input
          id={id}
          autoFocus
          required
          maxLength={10_000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              onDone();
            }
          }}
          placeholder={closing === "resolved" ? "verifier now checks the report" : "expected: the step only refactors"}
          className={`${inputClass} min-w-0 flex-1`}
        />
        <button type="submit" className={buttonClass} disabled={change.isPending || reason.trim() === ""}>
          {change.isPending ? "Saving…" : verb}
        </button>
        <button type="button" className={linkButtonClass} onClick={onDone}>
          Cancel
        </button>
      </div>
      <FormError message={change.error?.message} />
    </form>
  );
}
