import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { releaseReservation } from "@/lib/data/queues";

export const dynamic = "force-dynamic";

/** Gives back the caller's holds (`?task=` one of them); `?skips=1` also forgets their skips. */
export const DELETE = route<{ id: string }>("review", async ({ actor, params, req }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("queue");
  const search = new URL(req.url).searchParams;
  const rawTask = search.get("task");
  const taskId = rawTask === null ? undefined : parseId(rawTask);
  if (taskId === null) return notFound("task");
  const released = await releaseReservation(actor, id, { taskId, forgetSkips: search.get("skips") === "1" });
  return json({ released });
});
