import { Bar } from "@/components/ui/bar";
import { formatInt } from "@/lib/format/number";

export type QueueProgressBarProps = { done: number; total: number; label: string };

/** Done of total as a bar and as numbers; the bar is named for screen readers. */
export function QueueProgressBar({ done, total, label }: QueueProgressBarProps) {
  const pct = total > 0 ? Math.floor((done / total) * 100) : 0;
  return (
    <div className="flex min-w-0 items-center gap-2">
      <div className="min-w-16 flex-1">
        <Bar value={done} max={total} tone={done === total && total > 0 ? "ok" : "accent"} label={`${label}: ${done} of ${total} done`} />
      </div>
      <span className="shrink-0 font-mono text-2xs text-muted tabular-nums">
        {formatInt(done)}/{formatInt(total)} · {pct}%
      </span>
    </div>
  );
}
