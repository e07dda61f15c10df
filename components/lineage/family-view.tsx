"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { Kbd } from "@/components/ui/kbd";
import type { LineageNodeJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { FAMILY_LINEAGE, lineageQuery } from "@/lib/query/lineage";
import { LineageTree } from "./lineage-tree";

export type FamilyViewProps = { rootId: number; initialNode: number | null };

function setParam(key: string, value: string | null) {
  const next = new URLSearchParams(window.location.search);
  if (value === null || value === "") next.delete(key);
  else next.set(key, value);
  const qs = next.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${qs ? `?${qs}` : ""}`);
}

const control = "h-7 rounded-md border border-line-strong bg-surface px-2 text-xs";

/** A seed's whole tree (virtualized), filters that dim the rest, breadcrumbs and a per-round minimap. */
export function FamilyView({ rootId, initialNode }: FamilyViewProps) {
  const params = useSearchParams();
  const status = params.get("status") ?? "";
  const rmin = params.get("round_min") ?? "";
  const rmax = params.get("round_max") ?? "";
  const flagged = params.get("flagged") === "1";
  const { data } = useQuery(lineageQuery(rootId, FAMILY_LINEAGE));
  const [path, setPath] = useState<LineageNodeJson[]>([]);

  const all = useMemo(() => (data ? [data.task, ...data.descendants] : []), [data]);
  const perRound = useMemo(() => {
    const m = new Map<number, { accepted: number; rejected: number }>();
    for (const n of all) {
      const r = m.get(n.round ?? 0) ?? { accepted: 0, rejected: 0 };
      r[n.status] += 1;
      m.set(n.round ?? 0, r);
    }
    return [...m.entries()].sort((a, b) => a[0] - b[0]);
  }, [all]);
  const maxRound = Math.max(1, ...perRound.map(([, c]) => c.accepted + c.rejected));
  const filtering = status !== "" || rmin !== "" || rmax !== "" || flagged;
  const dim = (n: LineageNodeJson) =>
    filtering &&
    ((status !== "" && n.status !== status) ||
      (rmin !== "" && (n.round ?? 0) < Number(rmin)) ||
      (rmax !== "" && (n.round ?? 0) > Number(rmax)) ||
      (flagged && n.open_flags === 0));
  const matching = filtering ? all.filter((n) => !dim(n)).length : all.length;

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_240px]">
      <section aria-label="Family tree" className="min-w-0 overflow-hidden rounded-lg border border-line bg-surface">
        <div className="flex flex-wrap items-center gap-2 border-b border-line bg-surface-2 px-3 py-1.5 text-xs">
          <label className="flex items-center gap-1.5 text-muted">
            Status
            <select aria-label="Status" value={status} onChange={(e) => setParam("status", e.target.value)} className={control}>
              <option value="">any</option>
              <option value="accepted">accepted</option>
              <option value="rejected">rejected</option>
            </select>
          </label>
          <label className="flex items-center gap-1.5 text-muted">
            Rounds
            <input aria-label="From round" inputMode="numeric" value={rmin} onChange={(e) => setParam("round_min", e.target.value.replace(/\D/g, ""))} className={`${control} w-12`} placeholder="0" />
            –
            <input aria-label="To round" inputMode="numeric" value={rmax} onChange={(e) => setParam("round_max", e.target.value.replace(/\D/g, ""))} className={`${control} w-12`} placeholder="15" />
          </label>
          <label className="flex items-center gap-1.5 text-muted">
            <input type="checkbox" checked={flagged} onChange={(e) => setParam("flagged", e.target.checked ? "1" : null)} /> flagged
          </label>
          <span className="text-2xs text-faint tabular-nums">
            {filtering ? `${formatInt(matching)} of ${formatInt(all.length)} match; the rest is dimmed` : `${formatInt(all.length)} tasks`}
            {data?.truncated ? " · more load as you open nodes" : ""}
          </span>
          <span className="ml-auto hidden items-center gap-1 text-2xs text-faint xl:flex" aria-hidden="true">
            <Kbd>↑</Kbd>
            <Kbd>↓</Kbd> move <Kbd>←</Kbd>
            <Kbd>→</Kbd> fold <Kbd>Enter</Kbd> open <Kbd>d</Kbd> diff vs parent
          </span>
        </div>
        <nav aria-label="Breadcrumb to the selected task" className="flex min-h-7 flex-wrap items-center gap-1 border-b border-line px-3 py-1 font-mono text-2xs text-muted">
          {path.map((n, i) => (
            <span key={n.id} className="flex items-center gap-1">
              {i > 0 && <span aria-hidden="true" className="text-faint">›</span>}
              <Link href={`/tasks/${n.id}`} className={`hover:text-accent hover:underline ${i === path.length - 1 ? "font-semibold text-fg" : ""}`}>
                <VisibleText text={n.task_id} />
              </Link>
            </span>
          ))}
        </nav>
        <LineageTree
          focusId={rootId}
          initialNode={initialNode}
          params={FAMILY_LINEAGE}
          loadDepth={3}
          cap={12}
          height={640}
          fill
          label="Family tree"
          focusTag="root of this family"
          diffHref={(n) => (n.parent_id === null ? null : `/tasks/${n.id}/diff`)}
          dim={filtering ? dim : undefined}
          onSelectedChange={setPath}
        />
      </section>
      <aside aria-label="Tasks per round" className="h-fit rounded-lg border border-line bg-surface">
        <h2 className="border-b border-line bg-surface-2 px-3 py-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">Per round</h2>
        <ul className="flex flex-col gap-0.5 px-3 py-2 text-2xs">
          {perRound.map(([round, c]) => (
            <li key={round}>
              <button
                type="button"
                onClick={() => {
                  setParam("round_min", String(round));
                  setParam("round_max", String(round));
                }}
                className="grid w-full grid-cols-[2.25rem_minmax(0,1fr)_3.5rem] items-center gap-2 rounded px-1 hover:bg-surface-2"
                title={`Round ${round}: ${c.accepted} accepted, ${c.rejected} rejected — show only this round`}
              >
                <span className="text-left font-mono text-muted">R{round}</span>
                <svg viewBox="0 0 100 6" preserveAspectRatio="none" className="h-2 w-full" aria-hidden="true">
                  <rect x="0" y="0" width={(c.accepted / maxRound) * 100} height="6" className="fill-ok" />
                  <rect x={(c.accepted / maxRound) * 100} y="0" width={(c.rejected / maxRound) * 100} height="6" className="fill-bad" />
                </svg>
                <span className="text-right font-mono tabular-nums">
                  <span className="text-ok">{c.accepted}</span>/<span className="text-bad">{c.rejected}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
