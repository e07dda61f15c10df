"use client";

import type { SnippetJson, TaskRowJson } from "@/lib/api/types";
import type { SortColumn } from "@/lib/tasks/filter";
import { COLUMNS, type SortState } from "./columns";
import { TaskRow } from "./task-row";

export type TaskTableProps = {
  rows: TaskRowJson[];
  sort: SortState;
  onSort: (column: SortColumn) => void;
  selected: number;
  onSelect: (index: number) => void;
  onOpen: (row: TaskRowJson) => void;
  showRun: boolean;
  /** under a search: where each row matched (rows without one show none) */
  snippetOf?: Map<number, SnippetJson>;
  busy: boolean;
};

export function TaskTable({ rows, sort, onSort, selected, onSelect, onOpen, showRun, snippetOf, busy }: TaskTableProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table aria-busy={busy} className={`w-full table-fixed border-collapse text-xs transition-opacity ${busy ? "opacity-60" : ""}`}>
        <caption className="sr-only">Tasks. Use j and k to move the selection, Enter to open.</caption>
        <thead className="sticky top-0 border-b border-line bg-surface-2 text-2xs text-muted">
          <tr>
            {COLUMNS.map((col) => {
              const active = sort.column === col.sort;
              const dir = active ? (sort.descending ? "descending" : "ascending") : "none";
              return (
                <th key={col.id} scope="col" aria-sort={dir} className={`${col.width} p-0 font-medium ${col.numeric ? "text-right" : "text-left"}`}>
                  <button
                    type="button"
                    onClick={() => onSort(col.sort)}
                    title={col.title ? `Sort by ${col.title.toLowerCase()}` : `Sort by ${col.label.toLowerCase()}`}
                    className={`flex h-7 w-full items-center gap-1 px-2 whitespace-nowrap hover:text-fg ${col.numeric ? "justify-end" : ""} ${active ? "text-fg" : ""}`}
                  >
                    {col.label}
                    <span aria-hidden="true" className={`w-2 text-[9px] ${active ? "" : "opacity-0"}`}>
                      {sort.descending ? "▼" : "▲"}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <TaskRow
              key={row.id}
              row={row}
              index={i}
              selected={i === selected}
              showRun={showRun}
              snippet={snippetOf?.get(row.id)}
              columns={COLUMNS.length}
              onSelect={onSelect}
              onOpen={onOpen}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
