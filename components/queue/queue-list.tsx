import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import { AdminTable } from "@/components/admin/admin-table";
import type { QueueJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";
import { formatInt } from "@/lib/format/number";
import { QueueProgressBar } from "./queue-progress-bar";

export type QueueListProps = { queues: QueueJson[]; canReview: boolean };

const COLUMNS = [
  ["Queue", "w-[22%] text-left"],
  ["Filter", "w-[26%] text-left"],
  ["Progress", "w-[22%] text-left"],
  ["Left", "w-[7%] text-right"],
  ["Created", "w-[15%] text-left"],
  ["Actions", "w-[8%] text-right"],
] as const;

/** The queues with their progress; a reviewer opens one to work it. */
export function QueueList({ queues, canReview }: QueueListProps) {
  return (
    <AdminTable caption="Review queues" columns={COLUMNS} minWidth="min-w-[760px]">
      {queues.map((q) => (
        <tr key={q.id} className="border-b border-line last:border-b-0 hover:bg-surface-2">
          <td className="truncate px-2 py-1.5 font-medium">
            {canReview && !q.archived ? (
              <Link href={`/review/${q.id}`} className="text-accent hover:underline">
                <VisibleText text={q.name} />
              </Link>
            ) : (
              <VisibleText text={q.name} />
            )}
          </td>
          <td className="truncate px-2 py-1.5 font-mono text-2xs text-muted" title={q.filter}>
            <Link href={`/tasks?${q.filter}`} className="hover:text-fg hover:underline">
              {q.filter || "all tasks"}
            </Link>
          </td>
          <td className="px-2 py-1.5">
            <QueueProgressBar done={q.done} total={q.total} label={q.name} />
          </td>
          <td className="px-2 py-1.5 text-right font-mono tabular-nums">{formatInt(q.total - q.done)}</td>
          <td className="truncate px-2 py-1.5 text-muted">
            {formatDateTime(q.created_at)}
            {q.created_by && (
              <>
                {" "}
                · <VisibleText text={q.created_by} />
              </>
            )}
          </td>
          <td className="px-2 py-1.5 text-right">
            {canReview && !q.archived && q.done < q.total && (
              <Link href={`/review/${q.id}`} className="rounded border border-line-strong px-2 py-0.5 text-xs hover:border-accent hover:text-accent">
                Review
              </Link>
            )}
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}
