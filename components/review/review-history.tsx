import { VisibleText } from "@/components/code/visible-text";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { ReviewJson } from "@/lib/api/types";
import type { ReviewDecision } from "@/lib/domain";
import { formatDateTime } from "@/lib/format/date";

const DECISION_TONE: Record<ReviewDecision, BadgeTone> = { accept: "ok", reject: "bad", "needs-changes": "warn", skip: "info" };

export type ReviewHistoryProps = {
  items: ReviewJson[];
  /** The task's content now: a decision made on other content is marked. */
  contentHash: string;
};

/** Every decision on the task, newest first: who, when, what, and on which content. */
export function ReviewHistory({ items, contentHash }: ReviewHistoryProps) {
  if (items.length === 0) return <p className="text-xs text-faint">No decisions yet.</p>;
  return (
    <ol aria-label="Review history" className="flex flex-col divide-y divide-line">
      {items.map((r) => (
        <li key={r.id} className="flex flex-col gap-1 py-2 text-xs first:pt-0 last:pb-0">
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge tone={DECISION_TONE[r.decision]}>{r.decision}</Badge>
            {r.reason && <span className="font-medium">{r.reason}</span>}
          </div>
          <p className="text-muted">
            <VisibleText text={r.by ?? "unknown"} /> · <time dateTime={r.at}>{formatDateTime(r.at)}</time>
          </p>
          {r.note && (
            <p className="whitespace-pre-wrap break-words">
              <VisibleText text={r.note} />
            </p>
          )}
          <p className="flex flex-wrap items-center gap-1.5 text-2xs text-faint">
            <span>
              on version {r.base_version} ·{" "}
              <span className="font-mono" title={r.content_hash}>
                {r.content_hash.slice(0, 12)}
              </span>
            </span>
            {r.content_hash !== contentHash && (
              <span className="rounded bg-warn-soft px-1 font-medium text-warn" title="The task was re-imported with other content after this decision">
                content changed since
              </span>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
