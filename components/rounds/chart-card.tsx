"use client";

import { useRef, useState, type ReactNode } from "react";
import { downloadCsv, exportPng, type LegendEntry } from "./export-image";
import { markerPaint, markerPath } from "./marker";

export type ChartCardProps = {
  id: string;
  title: string;
  subtitle?: ReactNode;
  /** Names the exported files, e.g. the run and the slice. */
  fileParts: string[];
  legend: LegendEntry[];
  csv: () => string;
  children: ReactNode;
};

const button = "h-6 rounded border border-line bg-surface px-2 text-2xs text-muted hover:border-line-strong hover:text-fg disabled:opacity-50";

/** A chart with its title, its legend (drawn by us, so it matches the PNG) and its exports. */
export function ChartCard({ id, title, subtitle, fileParts, legend, csv, children }: ChartCardProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col rounded-lg border border-line bg-surface text-fg">
      <header className="flex items-start justify-between gap-3 border-b border-line px-3 py-2">
        <div className="min-w-0 flex-1">
          <h2 id={id} className="text-[13px] font-semibold">
            {title}
          </h2>
          {subtitle && <p className="text-2xs text-muted">{subtitle}</p>}
        </div>
        <div className="flex shrink-0 gap-1">
          <button
            type="button"
            className={button}
            disabled={busy}
            aria-label={`Export ${title} as PNG`}
            onClick={async () => {
              if (!ref.current) return;
              setBusy(true);
              try {
                await exportPng(ref.current, title, legend, ...fileParts, id);
              } finally {
                setBusy(false);
              }
            }}
          >
            PNG
          </button>
          <button type="button" className={button} aria-label={`Export ${title} as CSV`} onClick={() => downloadCsv(csv(), ...fileParts, id)}>
            CSV
          </button>
        </div>
      </header>
      <div
        ref={ref}
        className="bg-surface px-1 pt-2 text-fg [&_.recharts-cartesian-axis-line]:stroke-line-strong [&_.recharts-cartesian-axis-tick-line]:stroke-line-strong [&_.recharts-cartesian-axis-tick-value]:fill-muted [&_.recharts-cartesian-grid_line]:stroke-line [&_.recharts-label]:fill-muted"
      >
        {children}
      </div>
      {legend.length > 0 && (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 px-3 pt-1 pb-2.5 text-2xs text-muted" aria-label={`${title} legend`}>
          {legend.map((l) => (
            <li key={l.label} className="flex items-center gap-1.5">
              <svg width="18" height="10" aria-hidden="true">
                <line x1="0" y1="5" x2="18" y2="5" stroke={l.color} strokeWidth="3" strokeDasharray={l.dash || undefined} />
                {l.marker && <path d={markerPath(l.marker, 9, 5, 3)} {...markerPaint(l.marker, l.color, "var(--surface)")} />}
              </svg>
              <span>{l.label}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
