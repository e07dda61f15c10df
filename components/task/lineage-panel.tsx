"use client";

import Link from "next/link";
import { LineageTree } from "@/components/lineage/lineage-tree";
import { Kbd } from "@/components/ui/kbd";
import type { LineageNodeJson, TaskDetailJson } from "@/lib/api/types";
import { confidenceBand, type ConfidenceBand, type InferredLineage } from "@/lib/domain";
import { TASK_LINEAGE } from "@/lib/query/lineage";

const BAND_TONE: Record<ConfidenceBand, string> = { high: "text-ok", medium: "text-warn", low: "text-bad" };

export type LineagePanelProps = { task: TaskDetailJson; initialNode: number | null };

/** Seed → task, and what grew from it: an interactive tree with links to diffs and the family. */
export function LineagePanel({ task, initialNode }: LineagePanelProps) {
  const diffHref = (n: LineageNodeJson) => (n.id === task.id ? null : `/tasks/${task.id}/diff?against=${n.id}`);
  const rootId = task.root_id ?? task.id;
  return (
    <section id="lineage" aria-label="Lineage" className="scroll-mt-14 overflow-hidden rounded-lg border border-line bg-surface">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-surface-2 px-3 py-1.5 text-xs">
        <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">Lineage</h2>
        <span className="text-2xs text-faint">
          depth {task.depth} · {task.children.length} {task.children.length === 1 ? "child" : "children"}
        </span>
        {task.lineage_inferred && <InferredBadge inferred={task.lineage_inferred} parent={task.parent?.task_id ?? null} />}
        <span className="hidden items-center gap-1 text-2xs text-faint xl:flex" aria-hidden="true">
          <Kbd>↑</Kbd>
          <Kbd>↓</Kbd> move <Kbd>←</Kbd>
          <Kbd>→</Kbd> fold <Kbd>Enter</Kbd> open <Kbd>d</Kbd> diff
        </span>
        <nav aria-label="Lineage views" className="ml-auto flex items-center gap-3">
          {task.parent_id !== null && (
            <Link href={`/tasks/${task.id}/diff`} className="text-accent hover:underline">
              Diff vs parent
            </Link>
          )}
          {task.parent_id !== null && (
            <Link href={`/tasks/${task.id}/steps`} className="text-accent hover:underline">
              Steps from seed
            </Link>
          )}
          <Link href={`/families/${rootId}?node=${task.id}`} className="text-accent hover:underline">
            Family tree
          </Link>
        </nav>
      </header>
      <LineageTree
        focusId={task.id}
        initialNode={initialNode}
        params={TASK_LINEAGE}
        loadDepth={2}
        cap={8}
        height={360}
        label={`Lineage of ${task.task_id}`}
        focusTag="this task"
        diffHref={diffHref}
      />
    </section>
  );
}

/** The parent link (or its absence) was inferred from the solutions (C12): how sure, and why. */
function InferredBadge({ inferred, parent }: { inferred: InferredLineage; parent: string | null }) {
  const c = inferred.confidence;
  const tone = c === null ? "text-muted" : BAND_TONE[confidenceBand(c)];
  const why =
    parent === null
      ? "No task's solution is kept in this one's: it is a root of the inferred tree."
      : `Keeps ${inferred.shared_lines} of its parent's ${inferred.parent_lines} solution lines, in order (${inferred.child_lines} of its own)` +
        (inferred.runner_up ? `; runner-up ${inferred.runner_up.id} keeps ${inferred.runner_up.shared_lines}.` : "; no other candidate.");
  const round = inferred.round_from_depth ? " The round is the inferred depth." : "";
  return (
    <span data-testid="lineage-inferred" title={`Inferred from content, not declared by the pipeline. ${why}${round}`} className="inline-flex items-center gap-1 rounded border border-line px-1.5 text-2xs text-muted">
      inferred
      {c !== null && <span className={`font-mono tabular-nums ${tone}`}>{Math.round(c * 100)} %</span>}
    </span>
  );
}
