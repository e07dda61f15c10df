"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { DiffFiles } from "@/components/diff/diff-files";
import type { QueueTaskJson } from "@/lib/api/types";
import { queueTaskFilesQuery } from "@/lib/query/queues";

type Diff = NonNullable<QueueTaskJson["diff"]>;

export type ParentDiffProps = { queueId: number; taskId: number; diff: Diff };

const STATUS_CLASS = { added: "text-ok", removed: "text-bad", modified: "text-warn" } as const;

/**
 * The changed files of the step, and their highlighted diffs once opened: building those is the
 * costly part of a task's data, so it is fetched only for a reviewer who looks.
 */
export function ParentDiff({ queueId, taskId, diff }: ParentDiffProps) {
  const [open, setOpen] = useState(false);
  const files = useQuery({ ...queueTaskFilesQuery(queueId, taskId), enabled: open });
  return (
    <details className="rounded-lg border border-line bg-surface" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5 text-xs">
        <span className="text-2xs font-semibold tracking-wide text-muted uppercase">
          Parent diff · {diff.changes.length} changed file{diff.changes.length === 1 ? "" : "s"}
        </span>
        <span className="flex flex-wrap gap-x-3 font-mono text-2xs">
          {diff.changes.map((c) => (
            <span key={c.path} className={STATUS_CLASS[c.status]}>
              <VisibleText text={c.path} /> <span className="text-ok">+{c.added}</span> <span className="text-bad">−{c.removed}</span>
            </span>
          ))}
        </span>
        <Link href={`/tasks/${taskId}/diff`} className="ml-auto text-2xs text-accent hover:underline">
          Open the diff page
        </Link>
      </summary>
      {open && (
        <div className="border-t border-line p-2">
          {files.isError ? (
            <p className="text-xs text-bad">Could not load the diff: {files.error.message}</p>
          ) : !files.data?.diff?.files ? (
            <p className="px-1 py-2 text-xs text-faint">Loading the diff…</p>
          ) : files.data.diff.files.length === 0 ? (
            <p className="px-1 py-2 text-xs text-faint">No file changed.</p>
          ) : (
            <DiffFiles files={files.data.diff.files} from={diff.from} to={diff.to} />
          )}
        </div>
      )}
    </details>
  );
}
