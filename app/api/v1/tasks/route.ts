import { badRequest, json } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { listTasks } from "@/lib/data/read";
import { parseTaskFilter } from "@/lib/tasks/filter";

export const dynamic = "force-dynamic";

export const GET = route("read", async ({ actor, req }) => {
  const parsed = parseTaskFilter(new URL(req.url).searchParams);
  if (!parsed.ok) return badRequest(parsed.error);
  return json(await listTasks(actor, parsed.filter));
});
