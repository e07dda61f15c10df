"use client";

import { useRouter } from "next/navigation";
import { CartesianGrid, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RunRoundDetailJson } from "@/lib/api/types";
import { formatInt, formatPct, formatScore } from "@/lib/format/number";
import { toCsv } from "@/lib/rounds/csv";
import { DASHES, MARKERS, ROLE_COLORS, seriesStyle } from "@/lib/rounds/palette";
import { mergeByRound } from "@/lib/rounds/series";
import { ChartCard } from "./chart-card";
import { AXIS_TICK, CHART_HEIGHT, MARGIN, openAcceptedOnClick, seriesLines, TipBox } from "./chart-parts";
import type { LineSeries } from "./line-series";

export type SolverChartProps = { runs: RunRoundDetailJson[]; fileParts: string[] };

const kOf = (run: RunRoundDetailJson) => (run.solver.k ? `pass@${run.solver.k}` : "pass@k");

/** Solver pass@k and mean partial credit per round, with the model named. */
export function SolverChart({ runs, fileParts }: SolverChartProps) {
  const router = useRouter();
  const rows = mergeByRound(runs, { p: (r) => r.pass_at_k, c: (r) => r.mean_reward });
  const single = runs.length === 1;
  const series: LineSeries[] = runs.flatMap((run, i) => {
    const s = seriesStyle(i);
    const name = single ? "" : ` · ${run.run}`;
    return [
      { key: `p${i}`, label: `${kOf(run)}${name}`, color: single ? ROLE_COLORS.passAtK : s.color, dash: single ? "" : s.dash, marker: single ? "circle" : s.marker, run: i },
      // A run keeps its marker on both of its lines; the dotted line is always the partial credit.
      { key: `c${i}`, label: `mean partial credit${name}`, color: single ? ROLE_COLORS.reward : s.color, dash: single ? DASHES[1] : "3 3", marker: single ? MARKERS[1] : s.marker, run: i },
    ];
  });
  const models = [...new Set(runs.map((r) => r.solver.model ?? "unknown model"))];
  const index = runs.map((run) => new Map(run.rounds.map((r) => [r.round, r])));
  const primary = runs[0];
  return (
    <ChartCard
      id="solver"
      title={`Solver: ${models.join(", ")}`}
      subtitle={`Mean ${primary ? kOf(primary) : "pass@k"} (unbiased estimator) and mean partial credit over accepted tasks with an evaluation.`}
      fileParts={fileParts}
      legend={series.map((s) => ({ label: s.label, color: s.color, dash: s.dash, marker: s.marker }))}
      csv={() =>
        toCsv(
          [
            { header: "run", value: (r: { run: RunRoundDetailJson; round: RunRoundDetailJson["rounds"][number] }) => r.run.run },
            { header: "model", value: (r) => r.run.solver.model },
            { header: "k", value: (r) => r.run.solver.k },
            { header: "round", value: (r) => r.round.round },
            { header: "n", value: (r) => r.round.solver_n },
            { header: "pass_at_k", value: (r) => r.round.pass_at_k },
            { header: "mean_reward", value: (r) => r.round.mean_reward },
          ],
          runs.flatMap((run) => run.rounds.map((round) => ({ run, round }))),
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
          <YAxis tick={AXIS_TICK} domain={[0, 1]} width={44} tickFormatter={(v: number) => formatScore(v)} />
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
                    const isPass = s.key.startsWith("p");
                    const v = !r ? "—" : `${isPass ? formatPct(r.pass_at_k) : formatScore(r.mean_reward)} (n=${formatInt(r.solver_n)})`;
                    return { label: s.label, value: v, color: s.color };
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
