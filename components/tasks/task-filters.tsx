"use client";

import { useState } from "react";
import { FLAG_RULES, REVIEW_STATES, TASK_STATUSES } from "@/lib/domain";
import type { FacetsJson } from "@/lib/api/types";
import { MANUAL_RULE } from "@/lib/flags/types";
import { RANGE_METRICS, type RangeMetric, type TaskFilter } from "@/lib/tasks/filter";
import { CHIP_KEYS, FilterChips } from "./filter-chips";
import { FilterSelect, RangeField } from "./filter-controls";
import type { ParamPatch, UpdateOptions } from "./use-task-search";

const METRIC_LABEL: Record<RangeMetric, string> = {
  solution_lines: "Solution lines",
  commands: "Commands",
  distinct_tools: "Distinct tools",
  instruction_words: "Instruction words",
  verifier_tests: "Verifier tests",
  pass_at_k: "pass@k (0–1)",
};

const FLAG_OPTIONS = ["any", "none", ...FLAG_RULES, MANUAL_RULE] as const;

export type TaskFiltersProps = {
  filter: TaskFilter;
  facets: FacetsJson | undefined;
  update: (patch: ParamPatch, opts?: UpdateOptions) => void;
};

/** Keys this bar owns; "Clear" removes them and keeps the run, the sort and the page size. */
const FILTER_KEYS = [
  "round",
  "round_min",
  "round_max",
  "status",
  "review",
  "operator",
  "category",
  "flag",
  "q",
  ...CHIP_KEYS,
  ...RANGE_METRICS.flatMap((m) => [`${m}_min`, `${m}_max`]),
];

export function TaskFilters({ filter, facets, update }: TaskFiltersProps) {
  const metricActive = RANGE_METRICS.some((m) => filter[`${m}_min`] !== undefined || filter[`${m}_max`] !== undefined);
  const [showMetrics, setShowMetrics] = useState(metricActive);
  const active = FILTER_KEYS.filter((k) => (filter as Record<string, unknown>)[k] !== undefined).length;
  const pick = (key: string) => (value: string) => update({ [key]: value }, { push: true });

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line bg-surface px-3 py-2">
      <FilterChips filter={filter} update={update} />
      <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
        <RangeField
          label="Round"
          min={filter.round ?? filter.round_min}
          max={filter.round ?? filter.round_max}
          onCommit={(bound, v) => {
            // An exact `round` (from a link) becomes a range as soon as either end is edited.
            const min = bound === "min" ? v : (filter.round ?? filter.round_min);
            const max = bound === "max" ? v : (filter.round ?? filter.round_max);
            update({ round: null, round_min: min, round_max: max });
          }}
        />
        <FilterSelect label="Status" value={filter.status ?? ""} options={TASK_STATUSES} onChange={pick("status")} />
        <FilterSelect label="Review" value={filter.review ?? ""} options={REVIEW_STATES} onChange={pick("review")} />
        <FilterSelect label="Operator" value={filter.operator ?? ""} options={facets?.operators ?? []} onChange={pick("operator")} />
        <FilterSelect label="Category" value={filter.category ?? ""} options={facets?.categories ?? []} onChange={pick("category")} />
        <FilterSelect
          label="Flags"
          value={filter.flag ?? ""}
          options={FLAG_OPTIONS}
          labels={{ any: "Any open flag", none: "No open flag" }}
          anyLabel="All tasks"
          onChange={pick("flag")}
        />
        <button
          type="button"
          aria-expanded={showMetrics}
          aria-controls="metric-filters"
          onClick={() => setShowMetrics((s) => !s)}
          className={`h-7 rounded-md border px-2 text-xs hover:bg-surface-2 ${metricActive ? "border-accent/60 text-accent" : "border-line text-muted"}`}
        >
          Metrics {showMetrics ? "▴" : "▾"}
        </button>
        {active > 0 && (
          <button
            type="button"
            onClick={() => update(Object.fromEntries(FILTER_KEYS.map((k) => [k, null])), { push: true })}
            className="h-7 rounded-md px-2 text-xs text-muted hover:bg-surface-2 hover:text-fg"
          >
            Clear {active} filter{active === 1 ? "" : "s"}
          </button>
        )}
      </div>
      {showMetrics && (
        <div id="metric-filters" className="flex flex-wrap gap-x-4 gap-y-2 border-t border-line pt-2">
          {RANGE_METRICS.map((m) => (
            <RangeField
              key={m}
              label={METRIC_LABEL[m]}
              min={filter[`${m}_min`]}
              max={filter[`${m}_max`]}
              step={m === "pass_at_k" ? "0.05" : "1"}
              onCommit={(bound, v) => update({ [`${m}_${bound}`]: v })}
            />
          ))}
        </div>
      )}
    </div>
  );
}
