"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { SendDecision } from "@/components/review/use-decide";
import type { QueueHistoryJson, QueueNextJson, QueueSlotJson } from "@/lib/api/types";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { postNext, postQueueDecision, postSkip, queueKeys, queueTaskQuery, releaseHolds, seedQueueTask } from "@/lib/query/queues";

const PROGRESS_EVERY_MS = 3000;

type Holds = { current: QueueSlotJson | null; upcoming: QueueSlotJson | null; left: number; skipped: number };

/**
 * A reviewer's walk through a queue: the task they hold, the one held and fetched ahead of it, and
 * the tasks they already decided (to go back to with `k` and revise). A decision on the held task
 * is one request (`send`): its first line shows the prefetched task at once; the rest of the answer
 * brings the holds after it, the data of the new one and, every few seconds, the progress.
 */
export function useQueueSession(queueId: number, initialHistory: QueueHistoryJson[]) {
  const queryClient = useQueryClient();
  const [holds, setHolds] = useState<Holds | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [history, setHistory] = useState<QueueHistoryJson[]>(initialHistory);
  /** null: the held task; otherwise an index into `history`. */
  const [back, setBack] = useState<number | null>(null);
  const handled = useRef(new Set<number>(initialHistory.map((h) => h.id)));
  const inFlight = useRef(false);
  const again = useRef(false);
  const holdsRef = useRef<Holds | null>(null);
  useEffect(() => {
    holdsRef.current = holds;
  }, [holds]);
  /** Tasks whose decision went with the request for the next ones (no separate refresh needed). */
  const sentWithNext = useRef(new Set<number>());

  const prefetch = useCallback(
    (slot: QueueSlotJson | null) => {
      if (slot) void queryClient.prefetchQuery(queueTaskQuery(queueId, slot.task_id));
    },
    [queryClient, queueId],
  );

  const apply = useCallback(
    (next: QueueNextJson) => {
      // A task decided while this answer was on its way is not shown again.
      const fresh = [next.current, next.upcoming].filter((s): s is QueueSlotJson => s !== null && !handled.current.has(s.task_id));
      const [current = null, upcoming = null] = fresh;
      setHolds({ current, upcoming, left: next.left, skipped: next.skipped });
      prefetch(current);
      prefetch(upcoming);
    },
    [prefetch],
  );

  /** Asks for the held tasks; calls made while one is running coalesce into one more. */
  const refresh = useCallback(async () => {
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    try {
      do {
        again.current = false;
        const next = await postNext(queueId, true);
        if (!again.current) apply(next);
      } while (again.current);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      inFlight.current = false;
    }
  }, [apply, queueId]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const viewing = back === null ? (holds?.current?.task_id ?? null) : (history[back]?.id ?? null);

  /** Moves past the held task at once: the prefetched one takes its place. */
  const advance = useCallback(
    (taskId: number, decided: QueueHistoryJson | null) => {
      handled.current.add(taskId);
      if (decided) setHistory((h) => [...h.filter((x) => x.id !== taskId), decided]);
      setHolds((h) => (h && h.current?.task_id === taskId ? { ...h, current: h.upcoming, upcoming: null } : h));
    },
    [],
  );

  const forward = useCallback(() => {
    setBack((b) => (b === null || b + 1 >= history.length ? null : b + 1));
  }, [history.length]);

  const previous = useCallback(() => {
    setBack((b) => {
      if (history.length === 0) return b;
      if (b === null) return history.length - 1;
      return Math.max(0, b - 1);
    });
  }, [history.length]);

  // The progress panel follows the decisions, but is asked for at most every few seconds: with
  // many reviewers on a queue it is the costliest read of a decision's round. A decision made
  // sooner is not forgotten: the panel is read again once the few seconds are up, so a burst of
  // quick decisions never leaves it behind.
  const progressAt = useRef(0);
  const trailing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const progressDue = useCallback(() => {
    const wait = PROGRESS_EVERY_MS - (Date.now() - progressAt.current);
    if (wait <= 0) {
      progressAt.current = Date.now();
      return true;
    }
    trailing.current ??= setTimeout(() => {
      trailing.current = null;
      progressAt.current = Date.now();
      void invalidateAfterWrite(queryClient, { queryKey: queueKeys.detail(queueId) });
    }, wait);
    return false;
  }, [queryClient, queueId]);
  useEffect(
    () => () => {
      if (trailing.current) clearTimeout(trailing.current);
    },
    [],
  );

  /** How the held task's decision is sent: with the request for what follows it. */
  const send = useCallback(
    (taskId: number): SendDecision =>
      async (review) => {
        const ids = [taskId, holdsRef.current?.upcoming?.task_id].filter((id): id is number => id !== undefined);
        const have = ids.filter((id) => queryClient.getQueryData(queueKeys.task(queueId, id)) !== undefined);
        const { state, rest } = await postQueueDecision(queueId, { ...review, task_id: taskId, have, progress: progressDue() });
        handled.current.add(taskId);
        sentWithNext.current.add(taskId);
        rest
          .then((follow) => {
            for (const item of follow.members) seedQueueTask(queryClient, queueId, item);
            if (follow.queue) queryClient.setQueryData(queueKeys.detail(queueId), follow.queue);
            if (follow.next) apply(follow.next);
            else void refresh();
          })
          .catch(() => void refresh());
        return state;
      },
    [apply, progressDue, queryClient, queueId, refresh],
  );

  const decided = useCallback(
    (entry: QueueHistoryJson) => {
      const taskId = entry.id;
      const followed = sentWithNext.current.delete(taskId);
      if (!followed && progressDue()) void invalidateAfterWrite(queryClient, { queryKey: queueKeys.detail(queueId) });
      if (back !== null) {
        // A revision of an earlier decision: on to the one after it.
        setHistory((h) => h.map((x) => (x.id === taskId ? entry : x)));
        forward();
        return;
      }
      advance(taskId, entry);
      if (!followed) void refresh();
    },
    [advance, back, forward, progressDue, queryClient, queueId, refresh],
  );

  const skip = useCallback(
    async (taskId: number) => {
      if (back !== null) {
        forward();
        return;
      }
      advance(taskId, null);
      try {
        await postSkip(queueId, taskId);
      } catch (err) {
        setError((err as Error).message);
      }
      void refresh();
    },
    [advance, back, forward, queueId, refresh],
  );

  const reviewSkipped = useCallback(async () => {
    await releaseHolds(queueId, true);
    handled.current = new Set(history.map((h) => h.id));
    await refresh();
  }, [history, queueId, refresh]);

  const goTo = useCallback(
    (taskId: number) => {
      const i = history.findIndex((h) => h.id === taskId);
      setBack(i < 0 ? null : i);
    },
    [history],
  );

  return { holds, error, history, back, viewing, forward, previous, decided, send, skip, refresh, reviewSkipped, goTo };
}
