import type { RoundStatJson } from "@/lib/api/types";
import { formatPct, formatStat } from "@/lib/format/number";

type Pick = (r: RoundStatJson) => number | null;

const METRICS: { label: string; pick: Pick; pct?: boolean }[] = [
  { label: "Solution lines", pick: (r) => r.median_solution_lines },
  { label: "Commands", pick: (r) => r.median_commands },
  { label: "Distinct tools", pick: (r) => r.median_distinct_tools },
  { label: "Instruction words", pick: (r) => r.median_instruction_words },
  { label: "Verifier tests", pick: (r) => r.median_verifier_tests },
  { label: "pass@k", pick: (r) => r.pass_at_k, pct: true },
];

export type HeadlineMetricsProps = { rounds: RoundStatJson[]; solverK: number | null };

/** First round against last: does difficulty grow? */
export function HeadlineMetrics({ rounds, solverK }: HeadlineMetricsProps) {
  const first = rounds[0];
  const last = rounds[rounds.length - 1];
  if (!first || !last) return null;
  return (
    <div>
      <p className="mb-1 text-2xs text-muted">
        Median per accepted task, round {first.round} → round {last.round} (pass@k: mean)
      </p>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-md border border-line bg-line sm:grid-cols-3 xl:grid-cols-6">
        {METRICS.map(({ label, pick, pct }) => {
          const fmt = pct ? formatPct : formatStat;
          return (
            <div key={label} className="bg-surface px-3 py-2">
              <dt className="text-2xs text-muted">{label === "pass@k" && solverK ? `pass@${solverK}` : label}</dt>
              <dd className="mt-0.5 flex items-baseline gap-1.5 font-mono text-sm tabular-nums">
                <span className="text-muted">{fmt(pick(first))}</span>
                <span aria-hidden="true" className="text-faint">
                  →
                </span>
                <span className="sr-only">to</span>
                <span className="font-semibold">{fmt(pick(last))}</span>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}
