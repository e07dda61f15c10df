"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { buttonClass, FormError } from "@/components/auth/form-controls";
import { PageHeader } from "@/components/ui/page-header";
import { auditQuery } from "@/lib/query/admin";
import { AuditFilters } from "./audit-filters";
import { AuditTable } from "./audit-table";
import { useAuditSearch } from "./use-audit-search";

/** The actions written today, so the menu is complete even before each has happened once. */
const KNOWN_ACTIONS = [
  "sign-in",
  "sign-in.failed",
  "sign-in.refused",
  "password.change",
  "user.create",
  "user.role",
  "user.activate",
  "user.deactivate",
  "user.password-reset",
  "token.create",
  "token.revoke",
  "ingest",
];

export type AuditViewProps = { actions: string[] };

export function AuditView({ actions }: AuditViewProps) {
  const { filter, update } = useAuditSearch();
  const log = useInfiniteQuery(auditQuery(filter));
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  const allActions = [...new Set([...KNOWN_ACTIONS, ...actions])].sort();

  return (
    <>
      <PageHeader title="Audit log" subtitle="Sign-ins, role changes, tokens and imports, newest first." />
      <div className="flex flex-col gap-3">
        <AuditFilters filter={filter} actions={allActions} update={update} />
        {log.isError && <FormError message={`Could not load the audit log: ${log.error.message}`} />}
        {log.isPending ? (
          <p className="text-xs text-muted">Loading…</p>
        ) : entries.length === 0 ? (
          <p className="rounded-lg border border-dashed border-line-strong bg-surface px-4 py-8 text-center text-[13px] text-muted">No entries match these filters.</p>
        ) : (
          <AuditTable entries={entries} busy={log.isPlaceholderData} update={update} />
        )}
        {entries.length > 0 && (
          <div className="flex items-center justify-between gap-2 text-xs text-muted">
            <p aria-live="polite">
              <span className="font-mono text-fg tabular-nums">{entries.length}</span> entr{entries.length === 1 ? "y" : "ies"} shown
              {log.hasNextPage ? "" : " · end of the log"}
            </p>
            {log.hasNextPage && (
              <button type="button" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()} className={buttonClass}>
                {log.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            )}
          </div>
        )}
      </div>
    </>
  );
}
