"use client";

import { useRouter } from "next/navigation";
import { CartesianGrid, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RunRoundDetailJson } from "@/lib/api/types";
import { formatInt, formatPct } from "@/lib/format/number";
import { toCsv } from "@/lib/rounds/csv";
import { DASHES, MARKERS, ROLE_COLORS, seriesStyle } from "@/lib/rounds/palette";
import { mergeByRound } from "@/lib/rounds/series";
import { ChartCard } from "./chart-card";
import { AXIS_TICK, CHART_HEIGHT, MARGIN, openAcceptedOnClick, seriesLines, TipBox } from "./chart-parts";
import type { LineSeries } from "./line-series";

export type RatesChartProps = { runs: RunRoundDetailJson[]; fileParts: string[] };

/** Yield (accepted / candidates) and validation pass rate per round, one pair of lines per run. */
export function RatesChart({ runs, fileParts }: RatesChartProps) {
  const router = useRouter();
  const rows = mergeByRound(runs, { y: (r) => r.yield, v: (r) => r.validation_rate });
  const single = runs.length === 1;
  const series: LineSeries[] = runs.flatMap((run, i) => {
    const s = seriesStyle(i);
    const name = single ? "" : ` · ${run.run}`;
    return [
      { key: `y${i}`, label: `yield${name}`, color: single ? ROLE_COLORS.yield : s.color, dash: single ? "" : s.dash, marker: single ? "circle" : s.marker, run: i },
      // A run keeps its marker on both of its lines; the dotted line is always the validation rate.
      { key: `v${i}`, label: `validation pass rate${name}`, color: single ? ROLE_COLORS.validation : s.color, dash: single ? DASHES[1] : "3 3", marker: single ? MARKERS[1] : s.marker, run: i },
    ];
  });
  const index = runs.map((run) => new Map(run.rounds.map((r) => [r.round, r])));
  const primary = runs[0];
  return (
    <ChartCard
      id="rates"
      title="Yield and validation pass rate"
      subtitle="Yield: accepted ÷ candidates. Validation: candidates whose oracle trial passed ÷ candidates with an oracle trial."
      fileParts={fileParts}
      legend={series.map((s) => ({ label: s.label, color: s.color, dash: s.dash, marker: s.marker }))}
      csv={() =>
        toCsv(
          [
            { header: "run", value: (r: { run: string; round: RunRoundDetailJson["rounds"][number] }) => r.run },
            { header: "round", value: (r) => r.round.round },
            { header: "candidates", value: (r) => r.round.candidates },
            { header: "accepted", value: (r) => r.round.accepted },
            { header: "yield", value: (r) => r.round.yield },
            { header: "validated", value: (r) => r.round.validated },
            { header: "validation_passed", value: (r) => r.round.validation_passed },
            { header: "validation_rate", value: (r) => r.round.validation_rate },
          ],
          runs.flatMap((run) => run.rounds.map((round) => ({ run: run.run, round }))),
        )
      }
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <LineChart
          data={rows}
          margin={MARGIN}
          className="cursor-pointer"
          onClick={openAcceptedOnClick(primary, (href) => router.push(href))}
        >
          <CartesianGrid vertical={false} />
          <XAxis dataKey="round" tick={AXIS_TICK} tickFormatter={(v: number) => `R${v}`} />
          <YAxis tick={AXIS_TICK} domain={[0, 1]} tickFormatter={(v: number) => formatPct(v)} width={44} />
          <Tooltip
            content={({ active, label }) => {
              if (!active) return null;
              const round = Number(label);
              return (
                <TipBox
                  title={`Round ${round}`}
                  hint="Click for the round's accepted tasks"
                  rows={series.map((s) => {
                    const r = index[s.run]?.get(round);
                    const isYield = s.key.startsWith("y");
                    const value = !r
                      ? "—"
                      : isYield
                        ? `${formatPct(r.yield)} (${formatInt(r.accepted)}/${formatInt(r.candidates)})`
                        : `${formatPct(r.validation_rate)} (${formatInt(r.validation_passed)}/${formatInt(r.validated)})`;
                    return { label: s.label, value, color: s.color };
                  })}
                />
              );
            }}
          />
          {seriesLines(series)}
        </LineChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
