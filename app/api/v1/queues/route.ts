import { apiError, badRequest, json } from "@/lib/api/http";
import { filterFromText, newQueueSchema } from "@/lib/api/queue-schemas";
import { readJson, route } from "@/lib/api/route";
import { createQueue, listQueues } from "@/lib/data/queues";

export const dynamic = "force-dynamic";

/** Queues with their progress, newest first; `?archived=1` for the archived ones. */
export const GET = route("read", async ({ actor, req }) => {
  const archived = new URL(req.url).searchParams.get("archived") === "1";
  const items = await listQueues(actor, { archived });
  return json({ items, next: null, total: items.length });
});

/** A queue of the tasks a task-table filter matches now: `{name, filter, reservation_minutes?}`. */
export const POST = route("review", async ({ actor, req }) => {
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = newQueueSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  const filter = filterFromText(parsed.data.filter);
  if (!filter.ok) return apiError(400, "bad_filter", `the filter is not a task-table filter: ${filter.message}`);
  const queue = await createQueue(actor, { name: parsed.data.name, filter: filter.filter, reservationMinutes: parsed.data.reservation_minutes });
  return json(queue, { status: 201 });
});
