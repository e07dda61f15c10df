"use client";

import { useRouter } from "next/navigation";
import { Area, CartesianGrid, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RoundMetric, RunRoundDetailJson } from "@/lib/api/types";
import { formatInt, formatStat } from "@/lib/format/number";
import { toCsv } from "@/lib/rounds/csv";
import { METRIC_LABELS, PERCENTILES } from "@/lib/rounds/metrics";
import { seriesStyle } from "@/lib/rounds/palette";
import { forLog, mergeByRound } from "@/lib/rounds/series";
import type { Band } from "@/lib/rounds/url-state";
import { ChartCard } from "./chart-card";
import { AXIS_TICK, CHART_HEIGHT, MARGIN, openAcceptedOnClick, seriesLines, TipBox } from "./chart-parts";

export type DistributionChartProps = {
  runs: RunRoundDetailJson[];
  metric: RoundMetric;
  band: Band;
  log: boolean;
  fileParts: string[];
};

const range = (lo: number | null, hi: number | null, log: boolean): [number, number] | null => {
  const a = forLog(lo, log);
  const b = forLog(hi, log);
  return a === null || b === null ? null : [a, b];
};

/** Median per round with the interquartile band (and optionally p10–p90) over accepted tasks. */
export function DistributionChart({ runs, metric, band, log, fileParts }: DistributionChartProps) {
  const router = useRouter();
  const label = METRIC_LABELS[metric];
  const rows = mergeByRound(runs, {
    m: (r) => forLog(r.metrics[metric].p50, log),
    q: (r) => range(r.metrics[metric].p25, r.metrics[metric].p75, log),
    w: (r) => range(r.metrics[metric].p10, r.metrics[metric].p90, log),
  });
  const index = runs.map((run) => new Map(run.rounds.map((r) => [r.round, r])));
  const primary = runs[0];
  const base = seriesStyle(0).color;
  const legend = [
    ...runs.map((run, i) => ({ label: `median${runs.length > 1 ? ` · ${run.run}` : ""}`, ...seriesStyle(i) })),
    { label: `p25–p75${runs.length > 1 ? ` · ${primary?.run ?? ""}` : ""}`, color: `${base}61` },
    ...(band === "p10-p90" ? [{ label: "p10–p90", color: `${base}2a` }] : []),
  ];
  return (
    <ChartCard
      id="distribution"
      title={`${label} per round`}
      subtitle={`Accepted tasks: median line, interquartile band${band === "p10-p90" ? ", p10–p90 band" : ""}${log ? " · log scale" : ""}.`}
      fileParts={[...fileParts, metric]}
      legend={legend}
      csv={() =>
        toCsv(
          [
            { header: "run", value: (r: { run: string; round: RunRoundDetailJson["rounds"][number] }) => r.run },
            { header: "round", value: (r) => r.round.round },
            { header: "metric", value: () => metric },
            { header: "n", value: (r) => r.round.metrics[metric].n },
            ...PERCENTILES.map(([key]) => ({ header: key, value: (r: { round: RunRoundDetailJson["rounds"][number] }) => r.round.metrics[metric][key] })),
          ],
          runs.flatMap((run) => run.rounds.map((round) => ({ run: run.run, round }))),
        )
      }
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <ComposedChart
          data={rows}
          margin={MARGIN}
          className="cursor-pointer"
          onClick={openAcceptedOnClick(primary, (href) => router.push(href))}
        >
          <CartesianGrid vertical={false} />
          <XAxis dataKey="round" tick={AXIS_TICK} tickFormatter={(v: number) => `R${v}`} />
          <YAxis
            tick={AXIS_TICK}
            width={48}
            scale={log ? "log" : "auto"}
            domain={log ? ["auto", "auto"] : [0, "auto"]}
            allowDataOverflow={log}
            tickFormatter={(v: number) => formatStat(v)}
          />
          <Tooltip
            content={({ active, label: l }) => {
              if (!active) return null;
              const round = Number(l);
              return (
                <TipBox
                  title={`Round ${round} · ${label}`}
                  hint="Click for the round's accepted tasks"
                  rows={runs.flatMap((run, i) => {
                    const p = index[i]?.get(round)?.metrics[metric];
                    const prefix = runs.length > 1 ? `${run.run} ` : "";
                    if (!p) return [{ label: `${prefix}—`, value: "no tasks", color: seriesStyle(i).color }];
                    return [
                      { label: `${prefix}median`, value: `${formatStat(p.p50)} (n=${formatInt(p.n)})`, color: seriesStyle(i).color },
                      { label: `${prefix}p25–p75`, value: `${formatStat(p.p25)}–${formatStat(p.p75)}`, muted: true },
                      { label: `${prefix}p10–p90`, value: `${formatStat(p.p10)}–${formatStat(p.p90)}`, muted: true },
                    ];
                  })}
                />
              );
            }}
          />
          {band === "p10-p90" && <Area dataKey="w0" stroke="none" fill={base} fillOpacity={0.16} isAnimationActive={false} connectNulls activeDot={false} />}
          <Area dataKey="q0" stroke="none" fill={base} fillOpacity={0.38} isAnimationActive={false} connectNulls activeDot={false} />
          {seriesLines(runs.map((run, i) => ({ key: `m${i}`, label: `median ${run.run}`, ...seriesStyle(i) })))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
