"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { taskFlagsQuery } from "@/lib/query/flags";

export type FlagCountBadgeProps = { taskId: number; count: number };

/**
 * A task's open flags as a badge that opens the task's flags panel. The rule names come on hover
 * (one small request per task hovered), so the task table's query stays index-only.
 */
export function FlagCountBadge({ taskId, count }: FlagCountBadgeProps) {
  const [wanted, setWanted] = useState(false);
  const flags = useQuery({ ...taskFlagsQuery(taskId), enabled: wanted && count > 0, staleTime: 30_000 });
  if (count <= 0) return <span className="text-faint">·</span>;
  const rules = [...new Set((flags.data?.items ?? []).filter((f) => f.status === "open" && !f.outdated).map((f) => f.rule))];
  const title = rules.length > 0 ? `${count} open: ${rules.join(", ")}` : `${count} open flag${count === 1 ? "" : "s"}`;
  return (
    <Link
      href={`/tasks/${taskId}#flags`}
      onMouseEnter={() => setWanted(true)}
      onFocus={() => setWanted(true)}
      title={title}
      aria-label={title}
      className="inline-flex h-[18px] items-center gap-0.5 rounded bg-warn-soft px-1.5 font-mono text-2xs font-semibold text-warn hover:outline-1 hover:outline-warn"
    >
      ⚑{count}
    </Link>
  );
}
