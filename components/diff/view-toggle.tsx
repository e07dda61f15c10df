"use client";

import { useDiffView } from "./diff-files";
import { DIFF_VIEWS, type DiffViewMode, withView } from "./types";

/** Unified or side by side: a URL parameter switched in place (the data is already here). */
export function ViewToggle() {
  const view = useDiffView();
  const set = (v: DiffViewMode) => {
    const { pathname, search, hash } = window.location;
    window.history.pushState(null, "", withView(`${pathname}${search}${hash}`, v));
  };
  return (
    <div role="group" aria-label="Diff layout" className="inline-flex h-7 overflow-hidden rounded-md border border-line-strong text-xs">
      {DIFF_VIEWS.map((v) => (
        <button
          key={v}
          type="button"
          aria-pressed={view === v}
          onClick={() => set(v)}
          className={`px-2.5 ${view === v ? "bg-accent-soft font-medium text-accent" : "bg-surface text-muted hover:text-fg"} not-first:border-l not-first:border-line-strong`}
        >
          {v === "unified" ? "Unified" : "Split"}
        </button>
      ))}
    </div>
  );
}
