"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef } from "react";
import type { NewReview } from "@/lib/api/review-schemas";
import type { ReviewStateJson, TaskDetailJson } from "@/lib/api/types";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { lineageKeys } from "@/lib/query/lineage";
import { postReview, reviewKeys } from "@/lib/query/reviews";
import { taskKeys } from "@/lib/query/tasks";

export type Decision = NewReview & { base_version: number };

/** How a decision goes to the server: the reviews route, or the queue's (submit-and-next). */
export type SendDecision = (review: Decision) => Promise<ReviewStateJson>;

/**
 * Sends one decision at a time: a second press while one is in flight is dropped (the ref, not
 * the re-render, guards a double click). On success the task's state and history are refreshed.
 */
export function useDecide(taskId: number, send?: SendDecision) {
  const queryClient = useQueryClient();
  const inFlight = useRef(false);
  const mutation = useMutation({
    mutationFn: (review: Decision) => (send ? send(review) : postReview(taskId, review)),
    onSuccess: (state: ReviewStateJson) => {
      queryClient.setQueryData<TaskDetailJson>(taskKeys.detail(taskId), (old) =>
        old ? { ...old, version: state.version, review: state.review, content_hash: state.content_hash, last_review: state.last_review } : old,
      );
      // Not awaited: the caller's onSuccess (the queue moving to the next task) must not wait for
      // these refetches; the decided task's own state is already in the cache above.
      void invalidateAfterWrite(queryClient, { queryKey: reviewKeys.history(taskId) }, { queryKey: taskKeys.all }, { queryKey: lineageKeys.all });
    },
    onSettled: () => {
      inFlight.current = false;
    },
  });
  const { mutate } = mutation;
  const decide = useCallback(
    (review: Decision, onSuccess?: (state: ReviewStateJson) => void) => {
      if (inFlight.current) return;
      inFlight.current = true;
      mutate(review, { onSuccess });
    },
    [mutate],
  );
  return { decide, pending: mutation.isPending, error: mutation.error, data: mutation.data, reset: mutation.reset };
}
