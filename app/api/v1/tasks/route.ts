import { getDb } from "@/db/client";
import { listTasks } from "@/db/queries/tasks";
import { badRequest, json } from "@/lib/api/http";
import { parseTaskFilter } from "@/lib/tasks/filter";

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const parsed = parseTaskFilter(new URL(req.url).searchParams);
  if (!parsed.ok) return badRequest(parsed.error);
  return json(await listTasks(await getDb(), parsed.filter));
}
