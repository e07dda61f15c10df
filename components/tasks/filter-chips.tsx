"use client";

import { useQuery } from "@tanstack/react-query";
import { VisibleText } from "@/components/code/visible-text";
import { NO_REASON } from "@/lib/domain";
import { taskQuery } from "@/lib/query/tasks";
import type { TaskFilter } from "@/lib/tasks/filter";
import type { ParamPatch, UpdateOptions } from "./use-task-search";

export type FilterChipsProps = {
  filter: TaskFilter;
  update: (patch: ParamPatch, opts?: UpdateOptions) => void;
};

/** URL keys shown as chips: filters that arrive with a link (a Rounds chart) and have no menu. */
export const CHIP_KEYS = ["root", "reason"] as const;

type Chip = { key: (typeof CHIP_KEYS)[number]; label: string; value: string };

/** The active seed-family and rejection-reason filters, each removable on its own. */
export function FilterChips({ filter, update }: FilterChipsProps) {
  // The seed is named by its pipeline id; until that arrives, by its database id.
  const seed = useQuery({ ...taskQuery(filter.root ?? 0), enabled: filter.root !== undefined });
  const chips: Chip[] = [];
  if (filter.root !== undefined) chips.push({ key: "root", label: "Seed family", value: seed.data?.task_id ?? `#${filter.root}` });
  if (filter.reason !== undefined) chips.push({ key: "reason", label: "Rejection reason", value: filter.reason === NO_REASON ? "none recorded" : filter.reason });
  if (chips.length === 0) return null;
  return (
    <ul aria-label="Filters from a link" className="flex flex-wrap gap-1.5">
      {chips.map((c) => (
        <li key={c.key} className="flex h-6 items-center gap-1 rounded-md border border-accent/60 bg-accent-soft pr-0.5 pl-2 text-xs text-fg">
          <span className="text-muted">{c.label}:</span>
          <span className="max-w-72 truncate font-mono" data-testid={`filter-chip-${c.key}`}>
            <VisibleText text={c.value} />
          </span>
          <button
            type="button"
            aria-label={`Remove the ${c.label.toLowerCase()} filter`}
            onClick={() => update({ [c.key]: null }, { push: true })}
            className="grid size-5 place-items-center rounded text-muted hover:bg-surface-2 hover:text-fg"
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
