import Link from "next/link";
import { FlagCountBadge } from "@/components/flags/flag-count-badge";
import { ReviewBadge, StatusBadge } from "@/components/ui/badge";
import type { TaskRowJson } from "@/lib/api/types";
import { formatInt, formatPct } from "@/lib/format/number";

export type TaskRowProps = {
  row: TaskRowJson;
  index: number;
  selected: boolean;
  showRun: boolean;
  onSelect: (index: number) => void;
  onOpen: (row: TaskRowJson) => void;
};

const num = "px-2 text-right font-mono tabular-nums";
const text = "max-w-0 truncate px-2";

export function TaskRow({ row, index, selected, showRun, onSelect, onOpen }: TaskRowProps) {
  return (
    <tr
      data-index={index}
      aria-selected={selected}
      onClick={(e) => {
        // The id cell is a real link, and a drag to select text is not a click on the row.
        if (e.target instanceof Element && e.target.closest("a")) return;
        if (window.getSelection()?.toString()) return;
        onSelect(index);
        onOpen(row);
      }}
      className={`h-7 cursor-pointer border-b border-line/60 ${selected ? "bg-accent-soft" : "hover:bg-surface-2"}`}
    >
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
  );
}
