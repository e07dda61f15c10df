"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { formatInt } from "@/lib/format/number";

export type RunOption = { name: string; accepted: number };
export type RunSelectorProps = { runs: RunOption[] };

/** Sets `?run=` on the current page; a new run invalidates the page cursor. */
export function RunSelector({ runs }: RunSelectorProps) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const current = searchParams.get("run") ?? "";
  const known = current === "" || runs.some((r) => r.name === current);

  return (
    <label className="flex items-center gap-2 text-xs text-muted">
      <span>Run</span>
      <select
        value={current}
        onChange={(e) => {
          const params = new URLSearchParams(searchParams.toString());
          if (e.target.value) params.set("run", e.target.value);
          else params.delete("run");
          params.delete("cursor");
          const qs = params.toString();
          router.push(qs ? `${pathname}?${qs}` : pathname);
        }}
        className="h-7 max-w-64 rounded-md border border-line bg-surface px-2 text-[13px] text-fg hover:border-line-strong"
      >
        <option value="">All runs</option>
        {!known && <option value={current}>{current} (not found)</option>}
        {runs.map((r) => (
          <option key={r.name} value={r.name}>
            {r.name} · {formatInt(r.accepted)} accepted
          </option>
        ))}
      </select>
    </label>
  );
}
