"use client";

import { useEffect, useRef, useState } from "react";
import { linkButtonClass } from "@/components/auth/form-controls";
import { FilterSelect } from "@/components/tasks/filter-controls";
import { AUDIT_FILTER_KEYS, type AuditFilter } from "@/lib/query/admin";
import type { AuditPatch } from "./use-audit-search";

/** Prefix filters ("user." matches user.create, user.role, …) first, then exact actions. */
const ACTION_GROUPS = ["user.", "token.", "sign-in."] as const;
const GROUP_LABELS: Record<string, string> = {
  "user.": "user.* (people)",
  "token.": "token.* (API tokens)",
  "sign-in.": "sign-in.* (failed, refused)",
};
const TARGET_TYPES = ["user", "token", "run", "task"] as const;

const control = "h-7 rounded-md border border-line bg-surface px-2 text-[13px] text-fg placeholder:text-faint hover:border-line-strong";

type TextFilterProps = { label: string; value: string; placeholder?: string; className?: string; onCommit: (value: string) => void };

/** Applies after a pause in typing, on Enter or on blur. */
function TextFilter({ label, value, placeholder, className, onCommit }: TextFilterProps) {
  const [text, setText] = useState(value);
  const ref = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (document.activeElement !== ref.current) setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const commit = (v: string) => {
    clearTimeout(timer.current);
    if (v.trim() !== value) onCommit(v.trim());
  };
  return (
    <label className="flex flex-col gap-0.5">
      <span className="text-2xs text-muted">{label}</span>
      <input
        ref={ref}
        type="search"
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(v), 400);
        }}
        onBlur={() => commit(text)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit(text);
          }
        }}
        className={`${control} ${text ? "border-accent/60" : ""} ${className ?? ""}`}
      />
    </label>
  );
}

export type AuditFiltersProps = { filter: AuditFilter; actions: readonly string[]; update: (patch: AuditPatch, opts?: { push?: boolean }) => void };

export function AuditFilters({ filter, actions, update }: AuditFiltersProps) {
  const active = AUDIT_FILTER_KEYS.filter((k) => filter[k] !== undefined).length;
  const options = [...ACTION_GROUPS, ...actions.filter((a) => !a.endsWith("."))];
  return (
    <div className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded-lg border border-line bg-surface px-3 py-2">
      <FilterSelect label="Action" value={filter.action ?? ""} options={options} labels={GROUP_LABELS} anyLabel="All actions" onChange={(v) => update({ action: v }, { push: true })} />
      <TextFilter label="Actor" value={filter.actor ?? ""} placeholder="email or token name" className="w-52" onCommit={(v) => update({ actor: v })} />
      <FilterSelect label="Target type" value={filter.target_type ?? ""} options={TARGET_TYPES} onChange={(v) => update({ target_type: v }, { push: true })} />
      <TextFilter label="Target id" value={filter.target_id ?? ""} placeholder="exact id" className="w-44 font-mono" onCommit={(v) => update({ target_id: v })} />
      {active > 0 && (
        <button type="button" onClick={() => update({ action: null, actor: null, target_type: null, target_id: null }, { push: true })} className={`${linkButtonClass} h-7`}>
          Clear {active} filter{active === 1 ? "" : "s"}
        </button>
      )}
    </div>
  );
}
