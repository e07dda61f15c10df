import Link from "next/link";
import { memo } from "react";
import { VisibleText } from "@/components/code/visible-text";
import type { LineageNodeJson } from "@/lib/api/types";
import { formatInt, formatPct } from "@/lib/format/number";
import type { ReviewState } from "@/lib/domain";
import type { TreeRow } from "./tree-model";

export const ROW_HEIGHT = 24;

const REVIEW_CLASS: Record<ReviewState, string> = {
  unreviewed: "text-faint",
  accepted: "text-ok",
  rejected: "text-bad",
  "needs-changes": "text-warn",
  skipped: "text-info",
};

function Guides({ indent }: { indent: number }) {
  return Array.from({ length: indent }, (_, i) => (
    <span key={i} aria-hidden="true" className="relative w-4 shrink-0 self-stretch before:absolute before:inset-y-0 before:left-[7px] before:border-l before:border-line" />
  ));
}

export type TreeRowViewProps = {
  row: TreeRow;
  id: string;
  selected: boolean;
  current: boolean;
  currentTag: string;
  dimmed: boolean;
  /** The diff link of this node (null: none, e.g. the page's own task). */
  diffHref: string | null;
  onSelect: (key: string) => void;
  onToggle: (row: TreeRow) => void;
};

/** A node without an operator is a seed when it has no parent; a child whose operator nobody
 * recorded (inferred lineage, a pipeline that does not say) is just that. */
function operatorLabel(n: LineageNodeJson): string {
  return n.operator ?? (n.parent_id === null ? "seed" : "operator unknown");
}

function nodeTitle(n: LineageNodeJson): string {
  const parts = [n.task_id, `round ${n.round ?? "—"}`, operatorLabel(n), n.status];
  if (n.rejection_reason) parts.push(`reason: ${n.rejection_reason}`);
  parts.push(`review: ${n.review}`, `${n.children} direct children`);
  return parts.join(" · ");
}

/** One line of the tree: guides, toggle, status, id, round, operator, then aligned columns. Its links
 * do not prefetch: in a family, rows scroll past by the thousand. */
export const TreeRowView = memo(function TreeRowView({ row, id, selected, current, currentTag, dimmed, diffHref, onSelect, onToggle }: TreeRowViewProps) {
  const base = `flex h-6 items-stretch pr-2 text-xs ${selected ? "bg-accent-soft shadow-[inset_2px_0_0_var(--accent)]" : "hover:bg-surface-2"}`;
  if (row.kind === "more") {
    return (
      <div id={id} role="treeitem" aria-level={row.indent + 1} aria-selected={selected} className={base} onClick={() => onToggle(row)}>
        <Guides indent={row.indent} />
        <span className="flex items-center pl-4 text-2xs text-accent hover:underline">+{formatInt(row.hidden)} more</span>
      </div>
    );
  }
  const n = row.node;
  const rejected = n.status === "rejected";
  return (
    <div
      id={id}
      role="treeitem"
      aria-level={row.indent + 1}
      aria-selected={selected}
      aria-expanded={row.expandable ? row.open : undefined}
      aria-current={current ? "page" : undefined}
      title={nodeTitle(n)}
      className={`${base} ${dimmed ? "opacity-35" : ""}`}
      onClick={() => onSelect(row.key)}
    >
      <Guides indent={row.indent} />
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        className={`grid w-4 shrink-0 place-items-center text-[9px] text-faint hover:text-fg ${row.expandable ? "" : "invisible"}`}
        onClick={(e) => {
          e.stopPropagation();
          onToggle(row);
        }}
      >
        {row.open ? "▼" : "▶"}
      </button>
      <span className="flex min-w-0 flex-1 items-center gap-2">
        <span aria-hidden="true" className={`size-2 shrink-0 rounded-full ${rejected ? "bg-bad" : "bg-ok"}`} />
        <Link
          href={`/tasks/${n.id}`}
          tabIndex={-1}
          prefetch={false}
          className={`shrink-0 font-mono hover:underline ${rejected ? "text-bad" : "text-fg"} ${current ? "font-semibold" : ""}`}
        >
          <VisibleText text={n.task_id} />
        </Link>
        <span className="w-8 shrink-0 font-mono text-2xs text-muted tabular-nums">{n.round === null ? "—" : `R${n.round}`}</span>
        <span className="min-w-0 truncate text-2xs text-muted">{n.operator ? <VisibleText text={n.operator} /> : <i>{operatorLabel(n)}</i>}</span>
        {current && <span className="shrink-0 rounded bg-accent-soft px-1 text-2xs text-accent">{currentTag}</span>}
      </span>
      <span className={`flex w-24 shrink-0 items-center justify-end text-2xs ${REVIEW_CLASS[n.review]}`}>{n.review === "unreviewed" ? "" : n.review}</span>
      <span className="flex w-9 shrink-0 items-center justify-end" title={n.open_flags > 0 ? `${n.open_flags} open flag${n.open_flags === 1 ? "" : "s"}` : undefined}>
        {n.open_flags > 0 && <span className="rounded bg-warn-soft px-1 font-mono text-2xs font-semibold text-warn tabular-nums">⚑{n.open_flags}</span>}
      </span>
      <span className="flex w-14 shrink-0 items-center justify-end font-mono text-2xs text-muted tabular-nums" title="Reference solution lines">
        {n.solution_lines === null ? "—" : `${formatInt(n.solution_lines)} ln`}
      </span>
      <span className="flex w-11 shrink-0 items-center justify-end font-mono text-2xs text-faint tabular-nums" title="Solver pass@k">
        {n.pass_at_k === null ? "" : formatPct(n.pass_at_k)}
      </span>
      <span className="flex w-9 shrink-0 items-center justify-end text-2xs">
        {diffHref && (
          <Link href={diffHref} tabIndex={-1} prefetch={false} className="text-accent hover:underline" onClick={(e) => e.stopPropagation()}>
            diff
          </Link>
        )}
      </span>
    </div>
  );
});
