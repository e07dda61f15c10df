"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useHotkeys } from "@/components/shell/use-hotkeys";
import { PageHeader } from "@/components/ui/page-header";
import type { SnippetJson, TaskRowJson } from "@/lib/api/types";
import { facetsQuery, snippetsQuery, taskListQuery } from "@/lib/query/tasks";
import { hasCondition } from "@/lib/api/bulk-schemas";
import { taskFilterToSearch } from "@/lib/tasks/filter";
import { nextSort, parseSort } from "./columns";
import { cursorOffset, offsetCursor } from "./cursor";
import { FilterError } from "./filter-error";
import { Pagination } from "./pagination";
import { ReviewThese } from "@/components/queue/review-these";
import { BulkAction } from "./bulk-action";
import { ExportAction } from "./export-action";
import { SavedViewsMenu } from "./saved-views-menu";
import { TaskFilters } from "./task-filters";
import { TaskTable } from "./task-table";
import { useTaskSearch } from "./use-task-search";

export type TaskBrowserProps = { canReview?: boolean; isAdmin?: boolean };

/** A search as the subtitle shows it: in quotes, unless it is a phrase already in its own. */
function quoted(q: string): string {
  return /^".*"$/.test(q.trim()) ? q.trim() : `“${q}”`;
}

export function TaskBrowser({ canReview = false, isAdmin = false }: TaskBrowserProps) {
  const router = useRouter();
  const { parsed, update, searchParams } = useTaskSearch();
  const filter = parsed.ok ? parsed.filter : null;
  const list = useQuery({ ...taskListQuery(filter ?? { limit: 50 }), enabled: filter !== null });
  const facets = useQuery(facetsQuery(filter?.run));
  // No row is selected until the keyboard asks for one (j/k), so the table starts calm.
  const [selected, setSelected] = useState(-1);

  const rows = list.data?.items ?? [];
  const limit = filter?.limit ?? 50;
  const offset = cursorOffset(filter?.cursor);
  const searchKey = JSON.stringify(list.data?.items.map((r) => r.id) ?? []);
  // Under a search, each row shows where it matched; asked for once the page is there.
  const pageIds = useMemo(() => (list.data && !list.isPlaceholderData ? list.data.items.map((r) => r.id) : []), [list.data, list.isPlaceholderData]);
  const snippets = useQuery({ ...snippetsQuery(filter?.q ?? "", pageIds), enabled: Boolean(filter?.q) && pageIds.length > 0 });
  const snippetOf = useMemo(() => new Map((snippets.data?.items ?? []).map((s): [number, SnippetJson] => [s.task, s])), [snippets.data]);

  // A new page or filter clears the selection.
  useEffect(() => setSelected(-1), [searchKey]);

  // Focus follows the selection, so Enter opens the row natively and the focus ring shows where j/k are.
  useEffect(() => {
    if (selected < 0) return;
    const link = document.querySelector<HTMLAnchorElement>(`tr[data-index="${selected}"] a`);
    if (link && document.activeElement !== link) link.focus();
    link?.closest("tr")?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  const open = (row: TaskRowJson) => router.push(`/tasks/${row.id}`);
  const goNext = () => list.data?.next && update({ cursor: list.data.next }, { push: true, keepCursor: true });
  const goPrev = () => offset !== null && offset > 0 && update({ cursor: offsetCursor(offset - limit) }, { push: true, keepCursor: true });

  useHotkeys({
    j: () => setSelected((i) => Math.min(i + 1, rows.length - 1)),
    k: () => setSelected((i) => Math.max(i - 1, 0)),
    ArrowDown: (e) => {
      e.preventDefault();
      setSelected((i) => Math.min(i + 1, rows.length - 1));
    },
    ArrowUp: (e) => {
      e.preventDefault();
      setSelected((i) => Math.max(i - 1, 0));
    },
    Enter: (e) => {
      // Enter on a focused link or button keeps its own meaning.
      if (e.target instanceof HTMLElement && e.target.closest("a,button")) return;
      const row = rows[selected];
      if (row) open(row);
    },
    "]": goNext,
    "[": goPrev,
  });

  const pager = list.data && (
    <Pagination
      offset={offset}
      count={rows.length}
      total={list.data.total}
      totalIsEstimate={list.data.total_is_estimate}
      hasPrev={offset === null ? filter?.cursor !== undefined : offset > 0}
      hasNext={list.data.next !== null}
      onPrev={() => (offset === null ? update({ cursor: null }, { push: true }) : goPrev())}
      onNext={goNext}
      limit={limit}
      onLimit={(l) => update({ limit: l === 50 ? null : l }, { push: true })}
    />
  );

  const search = searchParams.toString();
  const toolbar = (
    <>
      {filter && <SavedViewsMenu search={search} current={taskFilterToSearch({ ...filter, cursor: undefined })} canSave={canReview} isAdmin={isAdmin} />}
      {canReview && filter && <ReviewThese search={taskFilterToSearch({ ...filter, cursor: undefined })} />}
      {canReview && filter && <BulkAction search={search} enabled={hasCondition(filter)} />}
      {isAdmin && filter && (
        <ExportAction
          filter={taskFilterToSearch({ ...filter, cursor: undefined, limit: undefined, sort: undefined })}
          total={list.data?.total ?? null}
          totalIsEstimate={list.data?.total_is_estimate ?? false}
        />
      )}
      {pager}
    </>
  );

  return (
    <>
      <PageHeader title="Tasks" subtitle={filter?.q ? `Matching ${quoted(filter.q)}` : filter?.run ? `Run ${filter.run}` : "All runs"} actions={toolbar} />
      <div className="flex flex-col gap-3">
        {!parsed.ok ? (
          <FilterError error={parsed.error} />
        ) : (
          <>
            {filter && <TaskFilters filter={filter} facets={facets.data} update={update} />}
            {list.isError && (
              <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft px-3 py-2 text-xs text-bad">
                Could not load tasks: {list.error.message}
              </p>
            )}
            {list.data && rows.length === 0 ? (
              <p className="rounded-lg border border-dashed border-line-strong bg-surface px-4 py-8 text-center text-[13px] text-muted">
                No tasks match these filters.
              </p>
            ) : (
              <TaskTable
                rows={rows}
                sort={parseSort(filter?.sort)}
                onSort={(column) => update({ sort: nextSort(parseSort(filter?.sort), column) }, { push: true })}
                selected={selected}
                onSelect={setSelected}
                onOpen={open}
                showRun={!filter?.run}
                snippetOf={filter?.q ? snippetOf : undefined}
                busy={list.isFetching && list.isPlaceholderData}
              />
            )}
            {list.isPending && <p className="text-xs text-muted">Loading…</p>}
            {pager && rows.length > 20 && <div className="flex justify-end">{pager}</div>}
          </>
        )}
      </div>
    </>
  );
}
