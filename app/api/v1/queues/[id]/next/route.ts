import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { nextInQueue } from "@/lib/data/queues";

export const dynamic = "force-dynamic";

/**
 * The caller's task in the queue, held for them for the queue's reservation time (asking again
 * returns the same one and renews the hold). `?prefetch=1` holds the task after it too. Holds are
 * not written to the audit log: they expire by themselves; the decisions made on them are audited.
 */
export const POST = route<{ id: string }>("review", async ({ actor, params, req }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("queue");
  const prefetch = new URL(req.url).searchParams.get("prefetch") === "1";
  const next = await nextInQueue(actor, id, { prefetch });
  return next ? json(next) : notFound("queue");
});
