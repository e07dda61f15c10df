// What follows a decision made in a queue (`POST /api/v1/queues/{id}/decisions`): the reviewer's
// next holds, the member data of those they do not have yet, and the progress when asked — what
// the screen would otherwise ask for in two or three more requests.
import type { QueueDecisionFollowUpJson, QueueSlotJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { getQueue, nextInQueue } from "@/lib/data/queues";
import { loadQueueMember } from "./member";

export async function afterDecision(actor: Actor | null, queueId: number, opts: { have: readonly number[]; progress: boolean }): Promise<QueueDecisionFollowUpJson> {
  const have = new Set(opts.have);
  const [next, queue] = await Promise.all([nextInQueue(actor, queueId, { prefetch: true }), opts.progress ? getQueue(actor, queueId) : null]);
  const wanted = next ? [next.current, next.upcoming].filter((s): s is QueueSlotJson => s !== null && !have.has(s.task_id)) : [];
  const members = await Promise.all(wanted.map((s) => loadQueueMember(actor, queueId, s.task_id)));
  return { next, members: members.filter((m) => m !== null), queue };
}
