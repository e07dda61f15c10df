import { apiError, badRequest, json, notFound, parseId } from "@/lib/api/http";
import { addItemsSchema, filterFromText } from "@/lib/api/queue-schemas";
import { readJson, route } from "@/lib/api/route";
import { addToQueue } from "@/lib/data/queues";

export const dynamic = "force-dynamic";

/**
 * Adds `{filter}` (a task-table query string), `{task_ids}`, or `{refresh: true}` (what the
 * queue's own filter matches now). Tasks already in the queue are counted in `already`, not added.
 */
export const POST = route<{ id: string }>("review", async ({ actor, params, req }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("queue");
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = addItemsSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  const data = parsed.data;
  let result;
  if ("filter" in data) {
    const filter = filterFromText(data.filter);
    if (!filter.ok) return apiError(400, "bad_filter", `the filter is not a task-table filter: ${filter.message}`);
    result = await addToQueue(actor, id, { filter: filter.filter });
  } else if ("task_ids" in data) {
    result = await addToQueue(actor, id, { taskIds: data.task_ids });
  } else {
    result = await addToQueue(actor, id, { refresh: true });
  }
  return result ? json(result) : notFound("open queue");
});
