import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { loadQueueTask } from "@/lib/data/queues";

export const dynamic = "force-dynamic";

/** A member with everything the review screen shows (task, instruction, trials, parent diff). */
export const GET = route<{ id: string; taskId: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const taskId = parseId(params.taskId);
  const item = id === null || taskId === null ? null : await loadQueueTask(actor, id, taskId);
  return item ? json(item) : notFound("queue member");
});
