"use client";

import { VisibleText } from "@/components/code/visible-text";
import { SideSection } from "@/components/task/side-section";
import { Kbd } from "@/components/ui/kbd";
import type { QueueDetailJson, QueueHistoryJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { QueueProgressBar } from "./queue-progress-bar";

export type QueueSidebarProps = {
  queue: QueueDetailJson;
  history: QueueHistoryJson[];
  /** The history entry on screen, or null for the held task. */
  back: number | null;
  onPick: (taskId: number) => void;
  onKeys: () => void;
};

/** Progress of the queue (done, left, per reviewer) and the tasks this reviewer decided here. */
export function QueueSidebar({ queue, history, back, onPick, onKeys }: QueueSidebarProps) {
  const p = queue.progress;
  return (
    <aside className="flex flex-col gap-4" aria-label="Queue progress">
      <SideSection title="Progress">
        <div className="flex flex-col gap-2 text-xs">
          <QueueProgressBar done={p.done} total={p.total} label="Queue progress" />
          <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5">
            <dt className="text-muted">Done</dt>
            <dd className="text-right font-mono tabular-nums">{formatInt(p.done)}</dd>
            <dt className="text-muted">Left</dt>
            <dd className="text-right font-mono tabular-nums" data-testid="queue-left">
              {formatInt(p.left)}
            </dd>
            <dt className="text-muted">Held by reviewers now</dt>
            <dd className="text-right font-mono tabular-nums">{formatInt(p.reserved)}</dd>
            <dt className="text-muted">Decided by you</dt>
            <dd className="text-right font-mono tabular-nums">{formatInt(queue.mine.done)}</dd>
          </dl>
          {p.by_reviewer.length > 0 && (
            <table className="w-full text-xs">
              <caption className="sr-only">Done per reviewer</caption>
              <thead className="text-2xs text-muted">
                <tr>
                  <th scope="col" className="text-left font-medium">
                    Reviewer
                  </th>
                  <th scope="col" className="text-right font-medium">
                    Done
                  </th>
                </tr>
              </thead>
              <tbody>
                {p.by_reviewer.map((r) => (
                  <tr key={r.reviewer}>
                    <td className="truncate">
                      <VisibleText text={r.reviewer} />
                    </td>
                    <td className="text-right font-mono tabular-nums">{formatInt(r.done)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </SideSection>
      <SideSection title="Decided by you here" count={history.length}>
        {history.length === 0 ? (
          <p className="text-xs text-faint">Nothing yet. Tasks you decide appear here; <Kbd>k</Kbd> goes back to them.</p>
        ) : (
          <ol className="flex max-h-64 flex-col gap-0.5 overflow-y-auto text-xs">
            {history
              .map((h, i) => ({ h, i }))
              .reverse()
              .slice(0, 50)
              .map(({ h, i }) => (
                <li key={h.id}>
                  <button
                    type="button"
                    onClick={() => onPick(h.id)}
                    aria-current={back === i ? "true" : undefined}
                    className={`flex w-full items-center justify-between gap-2 rounded px-1.5 py-0.5 text-left hover:bg-surface-2 ${back === i ? "bg-accent-soft text-accent" : ""}`}
                  >
                    <span className="truncate font-mono">
                      <VisibleText text={h.task_id} />
                    </span>
                    <span className="shrink-0 text-2xs text-muted">{h.decision}</span>
                  </button>
                </li>
              ))}
          </ol>
        )}
      </SideSection>
      <button type="button" onClick={onKeys} className="self-start text-xs text-muted hover:text-fg">
        <Kbd>?</Kbd> all keys
      </button>
    </aside>
  );
}
