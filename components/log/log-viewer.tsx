"use client";

import "./ansi.css";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useHotkeys } from "@/components/shell/use-hotkeys";
import { Kbd } from "@/components/ui/kbd";
import { formatBytes, formatInt } from "@/lib/format/number";
import { parseLineHash } from "@/lib/log/windows";
import { logDownloadUrl, type LogRef } from "@/lib/query/logs";
import { GoToLine } from "./go-to-line";
import { LogRows, type LogRowsHandle } from "./log-rows";
import { LogSearchBox } from "./log-search-box";
import { LogTabs } from "./log-tabs";
import { ToolButton } from "./tool-button";
import { useLogSearch } from "./use-log-search";

export type LogViewerProps = {
  trialId: number;
  name: string;
  totalLines: number;
  bytes: number;
  logs: readonly { name: string; lines: number; bytes: number }[];
};

/**
 * One log of a trial, any size: rows are virtual and fetched a window at a time, search runs on
 * the server, the selected line lives in the address (`#L1234`) so it can be shared.
 */
export function LogViewer({ trialId, name, totalLines, bytes, logs }: LogViewerProps) {
  const logRef: LogRef = useMemo(() => ({ trialId, name }), [trialId, name]);
  const downloadUrl = logDownloadUrl(logRef);
  const rows = useRef<LogRowsHandle>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const [wrap, setWrap] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [goToOpen, setGoToOpen] = useState(false);
  const [load, setLoad] = useState<{ loading: boolean; error: Error | null }>({ loading: false, error: null });

  const search = useLogSearch(
    logRef,
    () => (rows.current?.topLine() ?? 1) - 1,
    (line) => rows.current?.scrollToLine(line + 1, "reveal"),
  );

  const select = useCallback((line: number) => {
    setSelected(line);
    window.history.replaceState(null, "", `#L${line}`);
  }, []);

  // The address names a line: select it and bring it to the middle (on load and on hash edits).
  useEffect(() => {
    const follow = () => {
      const line = parseLineHash(window.location.hash, totalLines);
      if (line === null) return;
      setSelected(line);
      rows.current?.scrollToLine(line, "center");
    };
    follow();
    rows.current?.focus();
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, [totalLines]);

  useHotkeys({
    Home: (e) => {
      e.preventDefault();
      rows.current?.scrollToLine(1, "start");
    },
    End: (e) => {
      e.preventDefault();
      rows.current?.scrollToLine(totalLines, "end");
    },
    g: (e) => {
      e.preventDefault();
      setGoToOpen(true);
    },
  });

  // The browser's find cannot see rows that are not rendered: Ctrl/Cmd+F searches the log instead.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "f") {
        e.preventDefault();
        searchInput.current?.focus();
        searchInput.current?.select();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const onLoading = useCallback((loading: boolean, error: Error | null) => setLoad({ loading, error }), []);

  return (
    <section aria-label={`Log ${name}`} className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border border-line bg-surface">
      {logs.length > 1 && <LogTabs trialId={trialId} current={name} logs={logs} />}
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5 border-b border-line px-2 py-1.5">
        <LogSearchBox search={search} inputRef={searchInput} onEscape={() => rows.current?.focus()} />
        <ToolButton label="Search for errors and failures, and go to the first" onClick={search.firstError} disabled={totalLines === 0}>
          <span aria-hidden="true" className="text-bad">
            ●
          </span>
          First error
        </ToolButton>
        <span aria-hidden="true" className="mx-0.5 h-4 border-l border-line" />
        <GoToLine
          total={totalLines}
          open={goToOpen}
          onOpenChange={setGoToOpen}
          onGo={(line) => {
            select(line);
            rows.current?.scrollToLine(line, "center");
            rows.current?.focus();
          }}
        />
        <ToolButton label="Wrap long lines" pressed={wrap} onClick={() => setWrap((w) => !w)}>
          Wrap
        </ToolButton>
        <a
          href={downloadUrl}
          download
          className="inline-flex h-7 items-center gap-1 rounded-md border border-line-strong bg-surface px-2 text-xs text-fg hover:bg-surface-2"
        >
          <span aria-hidden="true">↓</span> Raw
        </a>
        <p className="ml-auto flex items-center gap-3 text-xs text-muted">
          {load.error ? (
            <span className="text-bad">Could not load lines: {load.error.message}</span>
          ) : (
            load.loading && <span className="text-faint">Loading lines…</span>
          )}
          <span className="tabular-nums">
            {formatInt(totalLines)} {totalLines === 1 ? "line" : "lines"} · {formatBytes(bytes)}
          </span>
          <span className="hidden items-center gap-1 text-faint xl:flex">
            <Kbd>Home</Kbd>
            <Kbd>End</Kbd>
          </span>
        </p>
      </div>
      {totalLines === 0 ? (
        <p className="px-4 py-6 text-xs text-faint">This log is empty.</p>
      ) : (
        <LogRows
          handle={rows}
          logRef={logRef}
          total={totalLines}
          wrap={wrap}
          selected={selected}
          matches={search.byLine}
          current={search.currentMatch}
          trimMatches={search.errorSearch}
          downloadUrl={downloadUrl}
          onSelect={select}
          onLoading={onLoading}
        />
      )}
    </section>
  );
}
