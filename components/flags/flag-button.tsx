"use client";

import { useId, useRef, useState } from "react";
import { buttonClass, FormError, primaryButtonClass, selectClass } from "@/components/auth/form-controls";
import { useHotkeys } from "@/components/shell/use-hotkeys";
import { Kbd } from "@/components/ui/kbd";
import type { FlagJson } from "@/lib/api/types";
import { FLAG_SEVERITIES, type FlagEvidence, type FlagSeverity } from "@/lib/flags/types";
import { useCreateFlag } from "./use-flag-mutations";

export type FlagButtonProps = {
  taskId: number;
  /** Bind `f` to open the dialog (never while typing, never as the second key of `g f`). */
  hotkey?: boolean;
  /** Where the problem is (a file and line, a trial…), attached to the flag as its evidence. */
  evidence?: FlagEvidence;
  /** Called with the new flag once it is saved (the flag lists and counts refresh by themselves). */
  onCreated?: (flag: FlagJson) => void;
  className?: string;
};

/** "Flag…": a small dialog for a reviewer's manual flag (a note and a severity) on the task's current content. */
export function FlagButton({ taskId, hotkey = false, evidence, onCreated, className }: FlagButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState("");
  const [severity, setSeverity] = useState<FlagSeverity>("medium");
  const create = useCreateFlag(taskId);
  const noteId = useId();
  const severityId = useId();
  const titleId = useId();

  const open = () => {
    create.reset();
    dialog.current?.showModal();
  };
  const submit = () => {
    if (note.trim() === "" || create.isPending) return;
    create.mutate(
      { note: note.trim(), severity, evidence: evidence ?? {} },
      {
        onSuccess: (flag) => {
          setNote("");
          setSeverity("medium");
          dialog.current?.close();
          onCreated?.(flag);
        },
      },
    );
  };

  // `g f` jumps to the Flags page (components/shell/shortcuts.tsx): its `f` must not open the dialog.
  const afterG = useRef(0);
  useHotkeys(
    {
      g: () => {
        afterG.current = Date.now();
      },
      f: (e) => {
        const navigating = Date.now() - afterG.current <= 1000;
        afterG.current = 0;
        if (navigating || dialog.current?.open) return;
        e.preventDefault();
        open();
      },
    },
    hotkey,
  );

  return (
    <>
      <button type="button" className={className ?? buttonClass} onClick={open} aria-haspopup="dialog" aria-keyshortcuts={hotkey ? "f" : undefined}>
        ⚑ Flag{hotkey && <Kbd>f</Kbd>}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[28rem] max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40"
        onClick={(e) => {
          if (e.target === e.currentTarget) e.currentTarget.close();
        }}
      >
        <form
          className="flex flex-col gap-2.5 px-4 py-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <h2 id={titleId} className="text-sm font-semibold">
            Flag this task
          </h2>
          <div className="flex flex-col gap-0.5">
            <label htmlFor={noteId} className="text-2xs text-muted">
              What is wrong
            </label>
            <textarea
              id={noteId}
              autoFocus
              required
              rows={4}
              maxLength={10_000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
                  e.preventDefault();
                  submit();
                }
              }}
              placeholder="The new test only checks that the file exists, not its contents."
              className="w-full resize-y rounded-md border border-line bg-surface px-2 py-1.5 text-[13px] text-fg placeholder:text-faint hover:border-line-strong"
            />
          </div>
          <div className="flex items-end gap-3">
            <div className="flex flex-col gap-0.5">
              <label htmlFor={severityId} className="text-2xs text-muted">
                Severity
              </label>
              <select id={severityId} value={severity} onChange={(e) => setSeverity(FLAG_SEVERITIES.find((s) => s === e.target.value) ?? "medium")} className={selectClass}>
                {FLAG_SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            <p className="pb-1 text-2xs text-faint">
              Tied to this revision of the task. <Kbd>Ctrl</Kbd>+<Kbd>Enter</Kbd> saves, <Kbd>Esc</Kbd> closes.
            </p>
          </div>
          <FormError message={create.error?.message} />
          <div className="flex justify-end gap-2">
            <button type="button" className={buttonClass} onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className={primaryButtonClass} disabled={create.isPending || note.trim() === ""}>
              {create.isPending ? "Saving…" : "Flag"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
