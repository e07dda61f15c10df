"use client";

import { useQuery } from "@tanstack/react-query";
import { SideSection } from "@/components/task/side-section";
import { reviewsQuery } from "@/lib/query/reviews";
import { taskQuery } from "@/lib/query/tasks";
import { ReviewHistory } from "./review-history";

export type ReviewHistoryPanelProps = { taskId: number; initialContentHash: string };

/** The task's decisions beside the page (prefetched by the server, refreshed after a decision). */
export function ReviewHistoryPanel({ taskId, initialContentHash }: ReviewHistoryPanelProps) {
  const history = useQuery(reviewsQuery(taskId));
  const contentHash = useQuery(taskQuery(taskId)).data?.content_hash ?? initialContentHash;
  const items = history.data?.items ?? [];
  return (
    <SideSection title="Review history" count={history.data ? items.length : undefined}>
      {history.isError ? (
        <p className="text-xs text-bad">Could not load the history: {history.error.message}</p>
      ) : history.isPending ? (
        <p className="text-xs text-faint">Loading…</p>
      ) : (
        <ReviewHistory items={items} contentHash={contentHash} />
      )}
    </SideSection>
  );
}
