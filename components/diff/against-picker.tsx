"use client";

import { useRouter } from "next/navigation";
import type { LineageNodeJson } from "@/lib/api/types";
import { useDiffView } from "./diff-files";
import { withView } from "./types";

export type AgainstPickerProps = { taskId: number; current: number; ancestors: LineageNodeJson[]; descendants: LineageNodeJson[] };

function label(n: LineageNodeJson, note?: string): string {
  return `R${n.round ?? "?"} · ${n.task_id} · ${n.operator ?? "seed"}${n.status === "rejected" ? " (rejected)" : ""}${note ? ` — ${note}` : ""}`;
}

/** Any ancestor or descendant of the task as the other side of the diff. */
export function AgainstPicker({ taskId, current, ancestors, descendants }: AgainstPickerProps) {
  const router = useRouter();
  const view = useDiffView();
  const last = ancestors.length - 1;
  return (
    <label className="flex items-center gap-2 text-xs text-muted">
      Compare with
      <select
        value={current}
        onChange={(e) => router.push(withView(`/tasks/${taskId}/diff?against=${e.target.value}`, view))}
        className="h-7 max-w-[26rem] rounded-md border border-line-strong bg-surface px-2 font-mono text-xs text-fg"
      >
        {ancestors.length > 0 && (
          <optgroup label="Ancestors (seed first)">
            {ancestors.map((n, i) => (
              <option key={n.id} value={n.id}>
                {label(n, i === last ? "parent" : i === 0 ? "seed" : undefined)}
              </option>
            ))}
          </optgroup>
        )}
        {descendants.length > 0 && (
          <optgroup label="Descendants">
            {descendants.map((n) => (
              <option key={n.id} value={n.id}>
                {label(n)}
              </option>
            ))}
          </optgroup>
        )}
      </select>
    </label>
  );
}
