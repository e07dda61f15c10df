"use client";

import { FilterSelect } from "@/components/tasks/filter-controls";
import { FLAG_RULES } from "@/lib/domain";
import { FLAG_SEVERITIES, FLAG_SOURCES, MANUAL_RULE } from "@/lib/flags/types";
import type { FlagParamPatch } from "./use-flag-search";

// No status in the address means open flags.
const STATUS_OPTIONS = ["outdated", "resolved", "dismissed", "all"] as const;
const RULE_OPTIONS = [...FLAG_RULES, MANUAL_RULE];

export type FlagFiltersProps = {
  get: (key: string) => string;
  rounds: string[];
  operators: string[];
  onChange: (patch: FlagParamPatch) => void;
};

/** Rule, status, source, severity, round, operator; a task filter shows as a chip. */
export function FlagFilters({ get, rounds, operators, onChange }: FlagFiltersProps) {
  const set = (key: string) => (value: string) => onChange({ [key]: value });
  const task = get("task");
  const active = ["rule", "status", "source", "severity", "round", "operator", "task"].some((k) => get(k) !== "");
  return (
    <div role="group" aria-label="Filter flags" className="flex flex-wrap items-end gap-2">
      <FilterSelect label="Rule" value={get("rule")} options={RULE_OPTIONS} onChange={set("rule")} />
      <FilterSelect
        label="Status"
        value={get("status") === "open" ? "" : get("status")}
        options={STATUS_OPTIONS}
        anyLabel="Open"
        labels={{ all: "Every status" }}
        onChange={set("status")}
      />
      <FilterSelect label="Source" value={get("source")} options={FLAG_SOURCES} onChange={set("source")} />
      <FilterSelect label="Severity" value={get("severity")} options={FLAG_SEVERITIES} onChange={set("severity")} />
      <FilterSelect label="Round" value={get("round")} options={rounds} onChange={set("round")} />
      <FilterSelect label="Operator" value={get("operator")} options={operators} onChange={set("operator")} />
      {task && (
        <button type="button" onClick={() => onChange({ task: null })} className="h-7 rounded-md border border-accent/60 bg-accent-soft px-2 text-xs text-accent" title="Remove the task filter">
          task #{task} ✕
        </button>
      )}
      {active && (
        <button type="button" onClick={() => onChange({ rule: null, status: null, source: null, severity: null, round: null, operator: null, task: null })} className="h-7 px-1.5 text-xs text-muted hover:text-fg">
          Clear filters
        </button>
      )}
    </div>
  );
}
