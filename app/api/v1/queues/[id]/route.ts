import { badRequest, json, notFound, parseId } from "@/lib/api/http";
import { patchQueueSchema } from "@/lib/api/queue-schemas";
import { readJson, route } from "@/lib/api/route";
import { getQueue, setQueueArchived } from "@/lib/data/queues";

export const dynamic = "force-dynamic";

/** The queue with its progress (done / left, per reviewer) and what the caller decided in it. */
export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const queue = id === null ? null : await getQueue(actor, id);
  return queue ? json(queue) : notFound("queue");
});

/** `{archived: true}` archives (no new tasks are handed out), `false` restores. */
export const PATCH = route<{ id: string }>("review", async ({ actor, params, req }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("queue");
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = patchQueueSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  const queue = await setQueueArchived(actor, id, parsed.data.archived);
  return queue ? json(queue) : notFound("queue");
});
