"use client";

import { forwardRef } from "react";
import { KeyList, type KeyHelp } from "@/components/ui/kbd";

/** Every key of the review screen; the decision keys are the decision bar's. */
export const QUEUE_KEYS: KeyHelp[] = [
  [["a"], "Accept, then the next task"],
  [["r"], "Reject: choose a reason (Enter records it, Esc cancels)"],
  [["n"], "Needs changes, then the next task"],
  [["s"], "Skip: leave it to the other reviewers"],
  [["f"], "Flag the task"],
  [["k"], "Previous: a task you decided here (decide again to revise)"],
  [["j"], "Next: back towards the task you hold"],
  [["Tab"], "Move through buttons, the note and links"],
  [["?"], "This list (Esc closes)"],
  [["g", "v"], "Back to the queues"],
];

/** The `?` dialog of the review screen: a native modal (Esc closes it, focus returns). */
export const CheatSheet = forwardRef<HTMLDialogElement>(function CheatSheet(_props, ref) {
  return (
    <dialog
      ref={ref}
      aria-labelledby="queue-keys-title"
      className="m-auto w-96 rounded-lg border border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40"
      onClick={(e) => {
        if (e.target === e.currentTarget) e.currentTarget.close();
      }}
    >
      <div className="flex items-center justify-between border-b border-line px-4 py-2.5">
        <h2 id="queue-keys-title" className="text-sm font-semibold">
          Review keys
        </h2>
        <form method="dialog">
          <button type="submit" autoFocus className="rounded px-1.5 text-muted hover:text-fg" aria-label="Close">
            ✕
          </button>
        </form>
      </div>
      <KeyList items={QUEUE_KEYS} />
      <p className="border-t border-line px-4 py-2 text-2xs text-faint">Keys do nothing while you type in a field.</p>
    </dialog>
  );
});
