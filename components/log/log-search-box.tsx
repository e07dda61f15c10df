"use client";

import type { Ref } from "react";
import { formatInt } from "@/lib/format/number";
import { matchCountText } from "@/lib/log/matches";
import type { LogSearchState } from "./use-log-search";
import { ToolButton } from "./tool-button";

export type LogSearchBoxProps = { search: LogSearchState; inputRef: Ref<HTMLInputElement>; onEscape: () => void };

export function LogSearchBox({ search, inputRef, onEscape }: LogSearchBoxProps) {
  const { input, regex, caseSensitive, total, listed, current, error, searching } = search;
  const status = error
    ? error
    : input === ""
      ? ""
      : searching && listed === 0
        ? "Searching…"
        : matchCountText(current, total);
  return (
    <div role="search" aria-label="Search this log" className="flex min-w-0 items-center gap-1.5">
      <div
        className={`flex h-7 w-72 min-w-0 items-center rounded-md border bg-surface focus-within:border-accent ${error ? "border-bad" : "border-line-strong"}`}
      >
        <input
          ref={inputRef}
          type="search"
          aria-label="Search in log"
          placeholder="Search log (Ctrl+F)"
          spellCheck={false}
          autoComplete="off"
          value={input}
          onChange={(e) => search.setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              search.step(e.shiftKey ? -1 : 1);
            } else if (e.key === "Escape") {
              e.preventDefault();
              if (input) search.clear();
              else onEscape();
            }
          }}
          className="h-full min-w-0 flex-1 bg-transparent px-2 font-mono text-xs outline-none placeholder:font-sans placeholder:text-faint [&::-webkit-search-cancel-button]:hidden"
        />
        <Toggle label="Regular expression" on={regex} onChange={search.setRegex}>
          .*
        </Toggle>
        <Toggle label="Match case" on={caseSensitive} onChange={search.setCaseSensitive}>
          Aa
        </Toggle>
      </div>
      <span
        role="status"
        aria-live="polite"
        title={error ?? (listed < total ? `The first ${formatInt(listed)} can be stepped through` : undefined)}
        className={`${status ? "min-w-20" : ""} max-w-72 truncate text-xs whitespace-nowrap tabular-nums ${error ? "text-bad" : total === 0 && input && !searching ? "text-warn" : "text-muted"}`}
      >
        {status}
        {listed < total && !error && <span className="text-faint">*</span>}
      </span>
      <ToolButton label="Previous match (Shift+Enter)" iconOnly onClick={() => search.step(-1)} disabled={listed === 0}>
        ↑
      </ToolButton>
      <ToolButton label="Next match (Enter)" iconOnly onClick={() => search.step(1)} disabled={listed === 0}>
        ↓
      </ToolButton>
    </div>
  );
}

function Toggle({ label, on, onChange, children }: { label: string; on: boolean; onChange: (on: boolean) => void; children: string }) {
  return (
    <button
      type="button"
      aria-pressed={on}
      aria-label={label}
      title={label}
      onClick={() => onChange(!on)}
      className={`mr-0.5 h-5 rounded px-1 font-mono text-[11px] ${on ? "bg-accent-soft font-semibold text-accent" : "text-muted hover:bg-surface-2 hover:text-fg"}`}
    >
      {children}
    </button>
  );
}
