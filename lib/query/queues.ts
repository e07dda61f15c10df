// Query factories and writes for review queues (app/api/v1/queues).
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { NewReview } from "@/lib/api/review-schemas";
import type { QueueAddJson, QueueDecisionFollowUpJson, QueueDetailJson, QueueJson, QueueNextJson, QueueTaskJson, ReviewStateJson, TaskDetailJson } from "@/lib/api/types";
import { fetchJson, sendForLines, sendJson } from "./fetch-json";
import { taskKeys } from "./tasks";

export const queueKeys = {
  all: ["queues"] as const,
  detail: (id: number) => ["queues", id, "detail"] as const,
  task: (id: number, taskId: number) => ["queues", id, "task", taskId] as const,
  files: (id: number, taskId: number) => ["queues", id, "task", taskId, "files"] as const,
};

export function queueQuery(id: number) {
  return queryOptions({
    queryKey: queueKeys.detail(id),
    queryFn: ({ signal }) => fetchJson<QueueDetailJson>(`/api/v1/queues/${id}`, signal),
  });
}

/** One member with everything the review screen shows; fetched ahead for the upcoming task. */
export function queueTaskQuery(id: number, taskId: number) {
  return queryOptions({
    queryKey: queueKeys.task(id, taskId),
    queryFn: async ({ signal, client }) => {
      const item = await fetchJson<QueueTaskJson>(`/api/v1/queues/${id}/tasks/${taskId}`, signal);
      seedTask(client, item);
      return item;
    },
  });
}

/** The decision bar reads the version from the task cache: seed it, unless it knows a newer one. */
function seedTask(client: QueryClient, item: QueueTaskJson) {
  const cached = client.getQueryData<TaskDetailJson>(taskKeys.detail(item.task.id));
  if (!cached || cached.version <= item.task.version) client.setQueryData(taskKeys.detail(item.task.id), item.task);
}

/** A member's data that came with a decision's answer, put where `queueTaskQuery` would. */
export function seedQueueTask(client: QueryClient, id: number, item: QueueTaskJson) {
  client.setQueryData(queueKeys.task(id, item.task.id), item);
  seedTask(client, item);
}

type Decision = NewReview & { base_version: number };

export type QueueDecision = Decision & { task_id: number; have: number[]; progress: boolean };

/**
 * Submit-and-next (`POST /api/v1/queues/{id}/decisions`): `state` as soon as the decision is
 * recorded; `rest` with the next holds, the member data not in `have`, and the progress if asked.
 */
export async function postQueueDecision(id: number, decision: QueueDecision): Promise<{ state: ReviewStateJson; rest: Promise<QueueDecisionFollowUpJson> }> {
  const { first, rest } = await sendForLines<{ decision: ReviewStateJson }, QueueDecisionFollowUpJson>(`/api/v1/queues/${id}/decisions`, decision);
  return { state: first.decision, rest };
}

export const postNext = (id: number, prefetch: boolean) => sendJson<QueueNextJson>("POST", `/api/v1/queues/${id}/next${prefetch ? "?prefetch=1" : ""}`);
export const postSkip = (id: number, taskId: number) => sendJson<{ skipped: number }>("POST", `/api/v1/queues/${id}/skip`, { task_id: taskId });
export const releaseHolds = (id: number, forgetSkips = false) =>
  sendJson<{ released: number }>("DELETE", `/api/v1/queues/${id}/reservation${forgetSkips ? "?skips=1" : ""}`);
export const createQueue = (body: { name: string; filter: string; reservation_minutes?: number }) => sendJson<QueueJson>("POST", "/api/v1/queues", body);
export const refreshQueue = (id: number) => sendJson<QueueAddJson>("POST", `/api/v1/queues/${id}/items`, { refresh: true });
export const archiveQueue = (id: number, archived: boolean) => sendJson<QueueJson>("PATCH", `/api/v1/queues/${id}`, { archived });

/** The member's highlighted parent diff, fetched when the reviewer opens it. */
export function queueTaskFilesQuery(id: number, taskId: number) {
  return queryOptions({
    queryKey: queueKeys.files(id, taskId),
    queryFn: ({ signal }) => fetchJson<QueueTaskJson>(`/api/v1/queues/${id}/tasks/${taskId}?files=1`, signal),
    staleTime: 5 * 60_000,
  });
}
