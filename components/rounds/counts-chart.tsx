"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type BarShapeProps } from "recharts";
import type { RunRoundDetailJson } from "@/lib/api/types";
import { toCsv } from "@/lib/rounds/csv";
import { REASON_COLORS, ROLE_COLORS } from "@/lib/rounds/palette";
import { reasonsOf } from "@/lib/rounds/series";
import { tasksHref } from "@/lib/rounds/url-state";
import { formatInt, formatPct } from "@/lib/format/number";
import { BarSegment } from "./bar-segment";
import { ChartCard } from "./chart-card";
import { AXIS_TICK, CHART_HEIGHT, MARGIN, TipBox } from "./chart-parts";

export type CountsChartProps = { run: RunRoundDetailJson; fileParts: string[] };

type CountRow = { round: number; accepted: number } & Record<string, number>;

/** Candidates per round: accepted at the bottom, each rejection reason stacked above. */
export function CountsChart({ run, fileParts }: CountsChartProps) {
  const router = useRouter();
  const reasons = reasonsOf(run);
  const color = (i: number) => REASON_COLORS[Math.min(i, REASON_COLORS.length - 1)] ?? "#999999";
  const rows: CountRow[] = run.rounds.map((r) => {
    const row: CountRow = { round: r.round, accepted: r.accepted };
    reasons.forEach((reason, i) => (row[`r${i}`] = r.rejection_reasons.find((x) => x.reason === reason)?.count ?? 0));
    return row;
  });
  const byRound = new Map(run.rounds.map((r) => [r.round, r]));
  const segment = (key: string, name: string, status: "accepted" | "rejected", reason?: string) =>
    function Segment(p: BarShapeProps) {
      const row = p.payload as CountRow;
      const n = row[key] ?? 0;
      const href = tasksHref(run.run, run.slice, row.round, { status, reason });
      return (
        <BarSegment
          x={p.x}
          y={p.y}
          width={p.width}
          height={p.height}
          fill={p.fill ?? "#999999"}
          label={`Round ${row.round}: ${formatInt(n)} ${name}${href ? " — open these tasks" : ""}`}
          href={href}
          onOpen={(h) => router.push(h)}
        />
      );
    };
  const legend = [
    { label: "accepted", color: ROLE_COLORS.accepted },
    ...reasons.map((r, i) => ({ label: `rejected: ${r}`, color: color(i) })),
  ];
  return (
    <ChartCard
      id="counts"
      title="Candidates per round"
      subtitle={`Accepted and rejected (by reason) — ${run.run}. Click a segment for exactly its tasks.`}
      fileParts={fileParts}
      legend={legend}
      csv={() =>
        toCsv(
          [
            { header: "round", value: (r: (typeof run.rounds)[number]) => r.round },
            { header: "candidates", value: (r) => r.candidates },
            { header: "accepted", value: (r) => r.accepted },
            { header: "rejected", value: (r) => r.rejected },
            ...reasons.map((reason) => ({
              header: `rejected:${reason}`,
              value: (r: (typeof run.rounds)[number]) => r.rejection_reasons.find((x) => x.reason === reason)?.count ?? 0,
            })),
          ],
          run.rounds,
        )
      }
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <BarChart data={rows} margin={MARGIN} barCategoryGap="18%">
          <CartesianGrid vertical={false} />
          <XAxis dataKey="round" tick={AXIS_TICK} tickFormatter={(v: number) => `R${v}`} />
          <YAxis tick={AXIS_TICK} allowDecimals={false} width={44} />
          <Tooltip
            cursor={{ fill: "var(--surface-3)", opacity: 0.5 }}
            content={({ active, label }) => {
              const r = active ? byRound.get(Number(label)) : undefined;
              if (!r) return null;
              return (
                <TipBox
                  title={`Round ${r.round}`}
                  rows={[
                    { label: "candidates", value: formatInt(r.candidates) },
                    { label: "accepted", value: formatInt(r.accepted), color: ROLE_COLORS.accepted },
                    ...r.rejection_reasons.map((x) => ({
                      label: `rejected: ${x.reason}`,
                      value: formatInt(x.count),
                      color: color(reasons.indexOf(x.reason)),
                    })),
                    { label: "yield", value: `${formatPct(r.yield)} (n=${formatInt(r.candidates)})`, muted: true },
                  ]}
                />
              );
            }}
          />
          <Bar dataKey="accepted" name="accepted" stackId="c" fill={ROLE_COLORS.accepted} isAnimationActive={false} shape={segment("accepted", "accepted", "accepted")} />
          {reasons.map((reason, i) => (
            <Bar
              key={reason}
              dataKey={`r${i}`}
              name={`rejected: ${reason}`}
              stackId="c"
              fill={color(i)}
              isAnimationActive={false}
              shape={segment(`r${i}`, `rejected (${reason})`, "rejected", reason)}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
