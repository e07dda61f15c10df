import Link from "next/link";
import type { MouseEvent } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { FlagCountBadge } from "@/components/flags/flag-count-badge";
import { fileHref } from "@/components/task/file-list";
import { ReviewBadge, StatusBadge } from "@/components/ui/badge";
import type { SnippetJson, TaskRowJson } from "@/lib/api/types";
import { formatInt, formatPct } from "@/lib/format/number";

export type TaskRowProps = {
  row: TaskRowJson;
  index: number;
  selected: boolean;
  showRun: boolean;
  /** where a search matched: drawn as a line under the row */
  snippet?: SnippetJson;
  /** the table's column count, for the snippet's line */
  columns: number;
  onSelect: (index: number) => void;
  onOpen: (row: TaskRowJson) => void;
};

const num = "px-2 text-right font-mono tabular-nums";
const text = "max-w-0 truncate px-2";

export function TaskRow({ row, index, selected, showRun, snippet, columns, onSelect, onOpen }: TaskRowProps) {
  const click = (e: MouseEvent) => {
    // The id cell is a real link, and a drag to select text is not a click on the row.
    if (e.target instanceof Element && e.target.closest("a")) return;
    if (window.getSelection()?.toString()) return;
    onSelect(index);
    onOpen(row);
  };
  // A row and its snippet's line light up together, whichever the pointer is over.
  const hover = selected ? "bg-accent-soft" : snippet ? "hover:bg-surface-2 [&:has(+tr:hover)]:bg-surface-2" : "hover:bg-surface-2";
  return (
    <>
      <tr data-index={index} aria-selected={selected} onClick={click} className={`h-7 cursor-pointer ${snippet ? "" : "border-b border-line/60"} ${hover}`}>
        <td className={`max-w-0 truncate px-2 ${selected ? "shadow-[inset_2px_0_0_var(--accent)]" : ""}`}>
          <Link href={`/tasks/${row.id}`} className="font-mono text-accent hover:underline" title={row.task_id} onFocus={() => onSelect(index)}>
            {row.task_id}
          </Link>
          {showRun && <span className="ml-2 text-2xs text-faint">{row.run}</span>}
        </td>
        <td className={num}>{row.round ?? "—"}</td>
        <td className="px-2">
          <StatusBadge status={row.status} reason={row.rejection_reason} />
        </td>
        <td className={text} title={row.operator ?? undefined}>
          {row.operator ?? <span className="text-faint">—</span>}
        </td>
        <td className={text} title={row.category ?? undefined}>
          {row.category ?? <span className="text-faint">—</span>}
        </td>
        <td className="px-2">
          <ReviewBadge review={row.review} />
        </td>
        <td className={num}>{formatInt(row.solution_lines)}</td>
        <td className={num}>{formatInt(row.commands)}</td>
        <td className={num}>{formatInt(row.distinct_tools)}</td>
        <td className={num}>{formatInt(row.instruction_words)}</td>
        <td className={num}>{formatInt(row.verifier_tests)}</td>
        <td className={num}>{formatPct(row.pass_at_k)}</td>
        <td className={num}>
          <FlagCountBadge taskId={row.id} count={row.open_flags} />
        </td>
      </tr>
      {snippet && <SnippetRow taskId={row.id} snippet={snippet} columns={columns} selected={selected} onClick={click} />}
    </>
  );
}

/** The line of a searched file where the row's task matched, its matches marked; it opens the
 * file at that line. Untrusted text: React text nodes, invisible characters drawn. */
function SnippetRow({
  taskId,
  snippet,
  columns,
  selected,
  onClick,
}: {
  taskId: number;
  snippet: SnippetJson;
  columns: number;
  selected: boolean;
  onClick: (e: MouseEvent) => void;
}) {
  const pieces: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const [start, end] of snippet.marks) {
    if (start > at) pieces.push({ text: snippet.text.slice(at, start), mark: false });
    pieces.push({ text: snippet.text.slice(start, end), mark: true });
    at = end;
  }
  if (at < snippet.text.length) pieces.push({ text: snippet.text.slice(at), mark: false });
  return (
    <tr data-snippet-of={taskId} onClick={onClick} className={`cursor-pointer border-b border-line/60 ${selected ? "bg-accent-soft" : "hover:bg-surface-2 [tr:hover+&]:bg-surface-2"}`}>
      <td colSpan={columns} className="max-w-0 truncate px-2 pb-1 pl-6 font-mono text-2xs leading-4 text-muted">
        <Link href={`${fileHref(taskId, snippet.path)}#L${snippet.line}`} tabIndex={-1} className="hover:text-fg" title={`${snippet.path}, line ${snippet.line}`}>
          <span className="mr-2 text-faint">
            <VisibleText text={snippet.path} />:{snippet.line}
          </span>
          {pieces.map((p, i) =>
            p.mark ? (
              <mark key={i} className="rounded-[2px] bg-found text-fg">
                <VisibleText text={p.text} />
              </mark>
            ) : (
              <VisibleText key={i} text={p.text} />
            ),
          )}
        </Link>
      </td>
    </tr>
  );
}
