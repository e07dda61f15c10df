"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FlagChange, NewFlag } from "@/lib/api/flag-schemas";
import { flagKeys, patchFlag, postFlag } from "@/lib/query/flags";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { lineageKeys } from "@/lib/query/lineage";
import { taskKeys } from "@/lib/query/tasks";

/** After any flag write: every flag list and count, and the task tables that show open_flags. */
function useRefreshAfterFlagWrite() {
  const client = useQueryClient();
  return () => invalidateAfterWrite(client, { queryKey: flagKeys.all }, { queryKey: taskKeys.all }, { queryKey: lineageKeys.all });
}

/** Resolve, dismiss (with a reason) or reopen a flag. */
export function useSetFlagStatus() {
  const refresh = useRefreshAfterFlagWrite();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: FlagChange }) => patchFlag(id, change),
    onSuccess: refresh,
  });
}

/** A manual flag on a task's current content. */
export function useCreateFlag(taskId: number) {
  const refresh = useRefreshAfterFlagWrite();
  return useMutation({
    mutationFn: (flag: Partial<NewFlag> & { note: string }) => postFlag(taskId, flag),
    onSuccess: refresh,
  });
}
