"use client";

import { useQuery } from "@tanstack/react-query";
import { ReviewBadge } from "@/components/ui/badge";
import type { ReviewState } from "@/lib/domain";
import { taskQuery } from "@/lib/query/tasks";

export type LiveReviewBadgeProps = { taskId: number; initial: ReviewState };

/** The header's review badge, following the task in the query cache (a decision updates it). */
export function LiveReviewBadge({ taskId, initial }: LiveReviewBadgeProps) {
  const { data } = useQuery(taskQuery(taskId));
  return <ReviewBadge review={data?.review ?? initial} />;
}

export type LiveVersionProps = { taskId: number; initial: number };

export function LiveVersion({ taskId, initial }: LiveVersionProps) {
  const { data } = useQuery(taskQuery(taskId));
  return <>{data?.version ?? initial}</>;
}
