"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useRef } from "react";
import { KeyList, type KeyHelp } from "@/components/ui/kbd";
import { NAV_ITEMS, withRun } from "./nav-items";
import { useHotkeys } from "./use-hotkeys";

const HELP: KeyHelp[] = [
  [["/"], "Focus search"],
  [["g", "o"], "Overview"],
  [["g", "t"], "Tasks"],
  [["g", "r"], "Rounds"],
  [["g", "a"], "Validation"],
  [["g", "f"], "Flags"],
  [["g", "v"], "Review"],
  [["j"], "Next row (tables)"],
  [["k"], "Previous row"],
  [["Enter"], "Open selected row"],
  [["]"], "Next page"],
  [["["], "Previous page"],
  [["a"], "Accept (task page)"],
  [["r"], "Reject with a reason"],
  [["n"], "Needs changes"],
  [["s"], "Skip"],
  [["f"], "Flag the task (task page)"],
  [["e"], "Resolve the selected flag (Flags page)"],
  [["d"], "Dismiss the selected flag (Flags page)"],
  [["?"], "This help"],
];

/** `g <key>` section jumps and the `?` help dialog. */
export function Shortcuts() {
  const router = useRouter();
  const searchParams = useSearchParams();
  const pendingG = useRef(0);
  const dialogRef = useRef<HTMLDialogElement>(null);

  const sectionKeys = Object.fromEntries(
    NAV_ITEMS.map((item) => [
      item.key,
      (e: KeyboardEvent) => {
        // Only as the second key of a `g` sequence typed within a second.
        if (Date.now() - pendingG.current > 1000) return;
        pendingG.current = 0;
        e.preventDefault();
        router.push(withRun(item.href, searchParams.get("run")));
      },
    ]),
  );

  useHotkeys({
    ...sectionKeys,
    g: () => {
      pendingG.current = Date.now();
    },
    "?": (e) => {
      e.preventDefault();
      dialogRef.current?.showModal();
    },
  });

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="shortcuts-title"
      className="m-auto w-80 rounded-lg border border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40"
      onClick={(e) => {
        if (e.target === e.currentTarget) e.currentTarget.close();
      }}
    >
      <div className="flex items-center justify-between border-b border-line px-4 py-2.5">
        <h2 id="shortcuts-title" className="text-sm font-semibold">
          Keyboard shortcuts
        </h2>
        <form method="dialog">
          <button type="submit" className="rounded px-1.5 text-muted hover:text-fg" aria-label="Close">
            ✕
          </button>
        </form>
      </div>
      <KeyList items={HELP} />
    </dialog>
  );
}
