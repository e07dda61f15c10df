"use client";

import { ROLES, type Role } from "@/lib/domain";
import { selectClass } from "./form-controls";

const compactClass =
  "h-6 w-24 rounded border border-transparent bg-transparent px-1 text-xs text-fg hover:border-line-strong focus-visible:border-line-strong disabled:cursor-not-allowed disabled:opacity-60";

export type RoleSelectProps = {
  id?: string;
  value: Role;
  onChange: (role: Role) => void;
  disabled?: boolean;
  "aria-label"?: string;
  /** Table-row size (h-6, smaller text). */
  compact?: boolean;
};

export function RoleSelect({ id, value, onChange, disabled, compact = false, ...aria }: RoleSelectProps) {
  return (
    <select
      id={id}
      value={value}
      disabled={disabled}
      aria-label={aria["aria-label"]}
      onChange={(e) => {
        const role = ROLES.find((r) => r === e.target.value);
        if (role) onChange(role);
      }}
      className={compact ? compactClass : `${selectClass} w-28`}
    >
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}
