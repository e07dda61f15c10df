import { formatDuration, spanMs } from "@/lib/format/date";
import type { TrialPhases } from "@/lib/api/types";

const PHASES = [
  { key: "environment_setup", label: "environment setup", className: "bg-faint/60" },
  { key: "agent_setup", label: "agent setup", className: "bg-info/50" },
  { key: "agent_execution", label: "solution / agent", className: "bg-accent/70" },
  { key: "verifier", label: "verifier", className: "bg-ok/70" },
] as const;

export type PhaseTimelineProps = { startedAt: string | null; finishedAt: string | null; phases: TrialPhases };

/** The trial's phases on one bar, placed by their start and end within the whole trial. */
export function PhaseTimeline({ startedAt, finishedAt, phases }: PhaseTimelineProps) {
  const total = spanMs(startedAt, finishedAt);
  const parts = PHASES.map((p) => {
    const ph = phases[p.key];
    return { ...p, offset: spanMs(startedAt, ph?.started_at), length: spanMs(ph?.started_at, ph?.finished_at) };
  });
  const title = parts.map((p) => `${p.label}: ${formatDuration(p.length)}`).join("\n");
  return (
    <div className="flex min-w-0 items-center gap-2" title={title}>
      <div className="relative h-2 w-28 shrink-0 overflow-hidden rounded-sm bg-surface-3" aria-label={`Phases: ${title.replaceAll("\n", ", ")}`} role="img">
        {total !== null &&
          total > 0 &&
          parts.map((p) =>
            p.offset === null || p.length === null ? null : (
              <span
                key={p.key}
                className={`absolute inset-y-0 ${p.className}`}
                style={{ left: `${Math.min(100, (p.offset / total) * 100)}%`, width: `${Math.max(1, Math.min(100, (p.length / total) * 100))}%` }}
              />
            ),
          )}
      </div>
      <span className="font-mono text-2xs text-muted tabular-nums">{formatDuration(total)}</span>
    </div>
  );
}
