"use client";

import Link from "next/link";
import { Area, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RoundDetailJson, RoundMetric, RunRoundDetailJson } from "@/lib/api/types";
import { formatInt, formatPct, formatScore, formatStat } from "@/lib/format/number";
import { ROLE_COLORS, seriesStyle } from "@/lib/rounds/palette";

export type RunCurvesProps = { detail: RunRoundDetailJson };

type Panel = {
  title: string;
  href: string;
  line: (r: RoundDetailJson) => number | null;
  band?: (r: RoundDetailJson) => [number, number] | null;
  format: (v: number | null) => string;
  n: (r: RoundDetailJson) => number;
  color: string;
  unit?: [number, number];
};

const metricPanel = (title: string, metric: RoundMetric, run: string): Panel => ({
  title,
  href: `/rounds?${new URLSearchParams({ run, metric }).toString()}`,
  line: (r) => r.metrics[metric].p50,
  band: (r) => {
    const m = r.metrics[metric];
    return m.p25 === null || m.p75 === null ? null : [m.p25, m.p75];
  },
  format: formatStat,
  n: (r) => r.metrics[metric].n,
  color: seriesStyle(0).color,
});

/** Small multiples of the Rounds page's curves for one run; each opens the full chart. */
export function RunCurves({ detail }: RunCurvesProps) {
  const run = detail.run;
  const rounds = `/rounds?${new URLSearchParams({ run }).toString()}`;
  const panels: Panel[] = [
    { title: "Yield", href: rounds, line: (r) => r.yield, format: formatPct, n: (r) => r.candidates, color: ROLE_COLORS.yield, unit: [0, 1] },
    { title: "Validation pass rate", href: rounds, line: (r) => r.validation_rate, format: formatPct, n: (r) => r.validated, color: ROLE_COLORS.validation, unit: [0, 1] },
    metricPanel("Solution lines", "solution_lines", run),
    metricPanel("Commands", "commands", run),
    metricPanel("Distinct tools", "distinct_tools", run),
    metricPanel("Instruction words", "instruction_words", run),
    {
      title: detail.solver.k ? `pass@${detail.solver.k}` : "pass@k",
      href: rounds,
      line: (r) => r.pass_at_k,
      format: formatPct,
      n: (r) => r.solver_n,
      color: ROLE_COLORS.passAtK,
      unit: [0, 1],
    },
    { title: "Partial credit", href: rounds, line: (r) => r.mean_reward, format: formatScore, n: (r) => r.solver_n, color: ROLE_COLORS.reward, unit: [0, 1] },
  ];
  return (
    <div>
      <h3 className="mb-1.5 text-2xs font-medium text-muted">
        Curves by round{" "}
        <Link href={rounds} className="text-accent hover:underline">
          open Rounds
        </Link>
      </h3>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4 2xl:grid-cols-8">
        {panels.map((p) => {
          const data = detail.rounds.map((r) => ({ round: r.round, v: p.line(r), b: p.band?.(r) ?? null }));
          const first = detail.rounds[0];
          const last = detail.rounds[detail.rounds.length - 1];
          return (
            <li key={p.title} className="rounded-md border border-line bg-surface-2/40 px-2 pt-1.5">
              <Link href={p.href} className="flex items-baseline justify-between gap-1 text-2xs hover:underline">
                <span className="truncate text-muted">{p.title}</span>
                <span className="font-mono whitespace-nowrap tabular-nums">
                  {first ? p.format(p.line(first)) : "—"} → {last ? p.format(p.line(last)) : "—"}
                </span>
              </Link>
              <ResponsiveContainer width="100%" height={56}>
                <ComposedChart data={data} margin={{ top: 4, right: 2, bottom: 2, left: 2 }}>
                  <XAxis dataKey="round" hide />
                  <YAxis hide domain={p.unit ?? [0, "auto"]} />
                  <Tooltip
                    content={({ active, label }) => {
                      const r = active ? detail.rounds.find((x) => x.round === Number(label)) : undefined;
                      if (!r) return null;
                      return (
                        <div className="rounded border border-line-strong bg-surface px-2 py-1 text-2xs text-fg shadow">
                          R{r.round}: <span className="font-mono">{p.format(p.line(r))}</span>
                          {p.band && <span className="text-muted"> (IQR {p.band(r)?.map((v) => formatStat(v)).join("–") ?? "—"})</span>} · n={formatInt(p.n(r))}
                        </div>
                      );
                    }}
                  />
                  {p.band && <Area dataKey="b" stroke="none" fill={p.color} fillOpacity={0.25} isAnimationActive={false} activeDot={false} connectNulls />}
                  <Line dataKey="v" stroke={p.color} strokeWidth={1.75} dot={false} isAnimationActive={false} connectNulls />
                </ComposedChart>
              </ResponsiveContainer>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
