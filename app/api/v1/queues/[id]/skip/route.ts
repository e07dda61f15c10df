import { badRequest, json, notFound, parseId } from "@/lib/api/http";
import { skipSchema } from "@/lib/api/queue-schemas";
import { readJson, route } from "@/lib/api/route";
import { skipInQueue } from "@/lib/data/queues";

export const dynamic = "force-dynamic";

/** `{task_id}`: not now, not by me — the hold is released and others still get the task. */
export const POST = route<{ id: string }>("review", async ({ actor, params, req }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("queue");
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = skipSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  return (await skipInQueue(actor, id, parsed.data.task_id)) ? json({ skipped: parsed.data.task_id }) : notFound("queue member");
});
