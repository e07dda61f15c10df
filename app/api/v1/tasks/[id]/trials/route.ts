import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { listTaskTrials } from "@/lib/data/trials";

export const dynamic = "force-dynamic";

/** Every validation trial of the task: check kind, verdict, reward, exception, phases, tests, logs. */
export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const items = id === null ? null : await listTaskTrials(actor, id);
  return items ? json({ items }) : notFound("task");
});
