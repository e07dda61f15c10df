"use client";

import { FilterSelect } from "@/components/tasks/filter-controls";
import type { SeedFamilyJson } from "@/lib/api/types";
import { REVIEW_STATES, type ReviewState } from "@/lib/domain";
import { formatInt } from "@/lib/format/number";
import { METRIC_LABELS, ROUND_METRICS } from "@/lib/rounds/metrics";
import { BANDS, type Band, type RoundsState } from "@/lib/rounds/url-state";

export type RoundsControlsProps = {
  state: RoundsState;
  update: (patch: Partial<RoundsState>) => void;
  runs: string[];
  categories: string[];
  operators: string[];
  seeds: SeedFamilyJson[];
};

const toggle = "h-7 rounded-md border px-2 text-[13px]";
const on = "border-accent bg-accent-soft text-fg";
const off = "border-line bg-surface text-muted hover:border-line-strong hover:text-fg";

/** Slice, comparison, metric, band and scale: every choice is a URL parameter. */
export function RoundsControls({ state, update, runs, categories, operators, seeds }: RoundsControlsProps) {
  const others = runs.filter((r) => r !== state.run);
  const seedLabels = Object.fromEntries(seeds.map((s) => [String(s.id), `${s.task_id} (${formatInt(s.tasks)})`]));
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line bg-surface px-3 py-2.5">
      <div className="flex flex-wrap items-end gap-3">
        <FilterSelect label="Category" value={state.slice.category ?? ""} options={categories} onChange={(v) => update({ slice: { category: v || undefined } })} />
        <FilterSelect label="Operator" value={state.slice.operator ?? ""} options={operators} onChange={(v) => update({ slice: { operator: v || undefined } })} />
        <FilterSelect
          label="Seed family"
          value={state.slice.root !== undefined ? String(state.slice.root) : ""}
          options={seeds.map((s) => String(s.id))}
          labels={seedLabels}
          onChange={(v) => update({ slice: { root: v ? Number(v) : undefined } })}
        />
        <FilterSelect
          label="Review"
          value={state.slice.review ?? ""}
          options={REVIEW_STATES}
          onChange={(v) => update({ slice: { review: (v || undefined) as ReviewState | undefined } })}
        />
        {others.length > 0 && (
          <fieldset className="flex flex-col gap-0.5">
            <legend className="text-2xs text-muted">Compare with</legend>
            <div className="flex flex-wrap gap-1">
              {others.slice(0, 8).map((r) => {
                const active = state.compare.includes(r);
                return (
                  <button
                    key={r}
                    type="button"
                    aria-pressed={active}
                    className={`${toggle} ${active ? on : off}`}
                    onClick={() => update({ compare: active ? state.compare.filter((c) => c !== r) : [...state.compare, r] })}
                  >
                    {r}
                  </button>
                );
              })}
            </div>
          </fieldset>
        )}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <fieldset className="flex flex-col gap-0.5">
          <legend className="text-2xs text-muted">Metric</legend>
          <div className="flex flex-wrap gap-1" role="radiogroup" aria-label="Metric">
            {ROUND_METRICS.map((m) => (
              <button
                key={m}
                type="button"
                role="radio"
                aria-checked={state.metric === m}
                className={`${toggle} ${state.metric === m ? on : off}`}
                onClick={() => update({ metric: m })}
              >
                {METRIC_LABELS[m]}
              </button>
            ))}
          </div>
        </fieldset>
        <FilterSelect
          label="Band"
          value={state.band === "iqr" ? "" : state.band}
          options={BANDS.filter((b) => b !== "iqr")}
          anyLabel="Interquartile (p25–p75)"
          labels={{ "p10-p90": "IQR + p10–p90" }}
          onChange={(v) => update({ band: (v || "iqr") as Band })}
        />
        <label className="flex h-7 items-center gap-1.5 text-[13px] text-muted">
          <input type="checkbox" checked={state.log} onChange={(e) => update({ log: e.target.checked })} className="accent-(--accent)" />
          Log scale
        </label>
      </div>
    </div>
  );
}
