"use client";

import { useEffect, useId, useRef, useState } from "react";

const control =
  "h-7 rounded-md border border-line bg-surface px-2 text-[13px] text-fg hover:border-line-strong placeholder:text-faint";

export type FilterSelectProps = {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  anyLabel?: string;
  labels?: Record<string, string>;
};

export function FilterSelect({ label, value, options, onChange, anyLabel = "Any", labels }: FilterSelectProps) {
  const unknown = value !== "" && !options.includes(value);
  const id = useId();
  return (
    <div className="flex flex-col gap-0.5">
      <label htmlFor={id} className="text-2xs text-muted">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={`${control} max-w-44 min-w-24 ${value ? "border-accent/60" : ""}`}>
        <option value="">{anyLabel}</option>
        {unknown && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
    </div>
  );
}

export type NumberFieldProps = {
  label: string;
  value: number | undefined;
  onCommit: (value: string) => void;
  placeholder?: string;
  step?: string;
  className?: string;
};

/** A number input that applies after a pause, on Enter or on blur — not on every keystroke. */
export function NumberField({ label, value, onCommit, placeholder, step = "1", className }: NumberFieldProps) {
  const external = value === undefined ? "" : String(value);
  const [text, setText] = useState(external);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const ref = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (document.activeElement !== ref.current) setText(external);
  }, [external]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (v: string) => {
    clearTimeout(timer.current);
    if (v.trim() !== external) onCommit(v.trim());
  };

  return (
    <input
      ref={ref}
      type="number"
      inputMode="decimal"
      aria-label={label}
      value={text}
      step={step}
      min={0}
      placeholder={placeholder}
      onChange={(e) => {
        const v = e.target.value;
        setText(v);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => commit(v), 500);
      }}
      onBlur={() => commit(text)}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit(text);
      }}
      className={`${control} w-16 font-mono tabular-nums ${text !== "" ? "border-accent/60" : ""} ${className ?? ""}`}
    />
  );
}

export type RangeFieldProps = {
  label: string;
  min: number | undefined;
  max: number | undefined;
  onCommit: (bound: "min" | "max", value: string) => void;
  step?: string;
};

export function RangeField({ label, min, max, onCommit, step }: RangeFieldProps) {
  return (
    <div role="group" aria-label={label} className="flex flex-col gap-0.5">
      <span className="text-2xs text-muted">{label}</span>
      <div className="flex items-center gap-1">
        <NumberField label={`${label} minimum`} value={min} onCommit={(v) => onCommit("min", v)} placeholder="min" step={step} />
        <span className="text-faint" aria-hidden="true">
          –
        </span>
        <NumberField label={`${label} maximum`} value={max} onCommit={(v) => onCommit("max", v)} placeholder="max" step={step} />
      </div>
    </div>
  );
}
