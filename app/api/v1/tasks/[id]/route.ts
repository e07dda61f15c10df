import { getDb } from "@/db/client";
import { getTask } from "@/db/queries/tasks";
import { json, notFound, parseId } from "@/lib/api/http";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const id = parseId((await ctx.params).id);
  const task = id === null ? null : await getTask(await getDb(), id);
  return task ? json(task) : notFound("task");
}
