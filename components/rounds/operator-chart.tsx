"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type BarShapeProps } from "recharts";
import type { RunRoundDetailJson } from "@/lib/api/types";
import { formatInt, formatPct } from "@/lib/format/number";
import { toCsv } from "@/lib/rounds/csv";
import { OKABE_ITO, OTHER_COLOR } from "@/lib/rounds/palette";
import { SEED_OPERATOR, topOperators } from "@/lib/rounds/series";
import { tasksHref } from "@/lib/rounds/url-state";
import { BarSegment } from "./bar-segment";
import { ChartCard } from "./chart-card";
import { AXIS_TICK, CHART_HEIGHT, MARGIN, TipBox } from "./chart-parts";

export type OperatorChartProps = { run: RunRoundDetailJson; fileParts: string[] };

const TOP = OKABE_ITO.length;
const OTHER = "other operators";

type MixRow = { round: number } & Record<string, number>;

/** Share of each round's accepted tasks per rewrite operator: the most used ones, the rest as "other". */
export function OperatorChart({ run, fileParts }: OperatorChartProps) {
  const router = useRouter();
  const top = topOperators(run, TOP);
  const names = [...top, OTHER];
  // "Other" is drawn faint so that the named operators carry the chart.
  const color = (i: number) => (i < top.length ? (OKABE_ITO[i] ?? OTHER_COLOR) : `${OTHER_COLOR}55`);
  const rows: MixRow[] = run.rounds.map((r) => {
    const row: MixRow = { round: r.round };
    const total = r.accepted || 1;
    let other = 0;
    for (const o of r.operators) {
      const name = o.operator ?? SEED_OPERATOR;
      const i = top.indexOf(name);
      if (i >= 0) row[`o${i}`] = o.accepted / total;
      else other += o.accepted;
    }
    row[`o${top.length}`] = other / total;
    return row;
  });
  const byRound = new Map(run.rounds.map((r) => [r.round, r]));
  const segment = (i: number) =>
    function Segment(p: BarShapeProps) {
      const row = p.payload as MixRow;
      const name = names[i] ?? OTHER;
      const r = byRound.get(row.round);
      const n = name === OTHER ? Math.round((row[`o${i}`] ?? 0) * (r?.accepted ?? 0)) : (r?.operators.find((o) => (o.operator ?? SEED_OPERATOR) === name)?.accepted ?? 0);
      const href = name === OTHER || name === SEED_OPERATOR ? null : tasksHref(run.run, run.slice, row.round, { status: "accepted", operator: name });
      return (
        <BarSegment
          x={p.x}
          y={p.y}
          width={p.width}
          height={p.height}
          fill={p.fill ?? OTHER_COLOR}
          label={`Round ${row.round}: ${formatInt(n)} accepted by ${name}`}
          href={href}
          onOpen={(h) => router.push(h)}
        />
      );
    };
  return (
    <ChartCard
      id="operators"
      title="Operator mix per round"
      subtitle={`Share of accepted tasks by rewrite operator (top ${top.length}; the rest grouped). Click a segment for its tasks.`}
      fileParts={fileParts}
      legend={names.map((n, i) => ({ label: n, color: color(i) }))}
      csv={() =>
        toCsv(
          [
            { header: "round", value: (r: { round: number; operator: string | null; candidates: number; accepted: number }) => r.round },
            { header: "operator", value: (r) => r.operator ?? SEED_OPERATOR },
            { header: "candidates", value: (r) => r.candidates },
            { header: "accepted", value: (r) => r.accepted },
          ],
          run.rounds.flatMap((r) => r.operators.map((o) => ({ round: r.round, ...o }))),
        )
      }
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <BarChart data={rows} margin={MARGIN} barCategoryGap="18%">
          <CartesianGrid vertical={false} />
          <XAxis dataKey="round" tick={AXIS_TICK} tickFormatter={(v: number) => `R${v}`} />
          <YAxis tick={AXIS_TICK} domain={[0, 1]} width={44} tickFormatter={(v: number) => formatPct(v)} />
          <Tooltip
            cursor={{ fill: "var(--surface-3)", opacity: 0.5 }}
            content={({ active, label }) => {
              const r = active ? byRound.get(Number(label)) : undefined;
              if (!r) return null;
              const shown = r.operators.filter((o) => o.accepted > 0).slice(0, 10);
              return (
                <TipBox
                  title={`Round ${r.round} · ${formatInt(r.accepted)} accepted`}
                  rows={shown.map((o) => {
                    const name = o.operator ?? SEED_OPERATOR;
                    const i = top.indexOf(name);
                    return {
                      label: name,
                      value: `${formatInt(o.accepted)}/${formatInt(o.candidates)} · ${formatPct(r.accepted ? o.accepted / r.accepted : null)}`,
                      color: color(i >= 0 ? i : top.length),
                    };
                  })}
                  hint={r.operators.length > shown.length ? `${r.operators.length - shown.length} more operators in the CSV` : "accepted/candidates · share"}
                />
              );
            }}
          />
          {names.map((n, i) => (
            <Bar key={n} dataKey={`o${i}`} name={n} stackId="m" fill={color(i)} isAnimationActive={false} shape={segment(i)} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
