"use client";

import type { ReactNode } from "react";
import { Line } from "recharts";
import type { RoundSliceJson } from "@/lib/api/types";
import type { Marker } from "@/lib/rounds/palette";
import { tasksHref } from "@/lib/rounds/url-state";
import { markerPaint, markerPath } from "./marker";

export const CHART_HEIGHT = 260;
export const AXIS_TICK = { fontSize: 11 } as const;
export const MARGIN = { top: 8, right: 16, bottom: 4, left: 4 } as const;

export type TipRow = { label: string; value: string; color?: string; muted?: boolean };

/** Hover box: exact numbers with n, in the page's colours. */
export function TipBox({ title, rows, hint }: { title: string; rows: TipRow[]; hint?: string }) {
  return (
    <div className="min-w-44 rounded-md border border-line-strong bg-surface px-2.5 py-2 text-2xs text-fg shadow-lg">
      <p className="mb-1 font-semibold">{title}</p>
      <table className="w-full">
        <tbody>
          {rows.map((r) => (
            <tr key={r.label} className={r.muted ? "text-muted" : undefined}>
              <td className="pr-3">
                {r.color && <span className="mr-1.5 inline-block size-2 rounded-full align-middle" style={{ background: r.color }} />}
                {r.label}
              </td>
              <td className="text-right font-mono tabular-nums">{r.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {hint && <p className="mt-1 text-faint">{hint}</p>}
    </div>
  );
}

type DotProps = { cx?: number; cy?: number; stroke?: string; value?: unknown };

/** A marker per series (circle, square, triangle, diamond, cross), so colour is never the only cue. */
export function markerDot(marker: Marker, color: string) {
  function Dot({ cx, cy, value }: DotProps): ReactNode {
    if (cx === undefined || cy === undefined || value === null || value === undefined) return null;
    return <path d={markerPath(marker, cx, cy)} {...markerPaint(marker, color)} />;
  }
  return Dot;
}

/** The round under the pointer of a chart click, if any. */
export function clickedRound(state: { activeLabel?: string | number } | null | undefined): number | null {
  const label = state?.activeLabel;
  if (label === undefined || label === null || label === "") return null;
  const n = Number(label);
  return Number.isInteger(n) ? n : null;
}

/**
 * One line per series, colour plus dash plus marker (readable without colour). Called as a
 * function, not rendered as a component: Recharts reads its chart's direct children.
 */
export function seriesLines(series: readonly { key: string; label: string; color: string; dash?: string; marker: Marker }[]) {
  return series.map((s) => (
    <Line
      key={s.key}
      dataKey={s.key}
      name={s.label}
      stroke={s.color}
      strokeWidth={2}
      strokeDasharray={s.dash || undefined}
      dot={markerDot(s.marker, s.color)}
      activeDot={{ r: 5 }}
      isAnimationActive={false}
      connectNulls
    />
  ));
}

/** A click on a round of a chart opens the task table with that round's accepted tasks of the
 * first run, within the page's slice. */
export function openAcceptedOnClick(primary: { run: string; slice: RoundSliceJson } | undefined, push: (href: string) => void) {
  return (state: { activeLabel?: string | number } | null | undefined) => {
    const round = clickedRound(state);
    const href = primary && round !== null ? tasksHref(primary.run, primary.slice, round, { status: "accepted" }) : null;
    if (href) push(href);
  };
}
