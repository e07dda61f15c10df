import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getTask } from "@/lib/data/read";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const task = id === null ? null : await getTask(actor, id);
  return task ? json(task) : notFound("task");
});
