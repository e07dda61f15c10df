import { newFlagSchema } from "@/lib/api/flag-schemas";
import { badRequest, json, notFound, parseId } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { getReviewState } from "@/lib/data/reviews";
import { createManualFlag, listTaskFlags } from "@/lib/data/flags";

export const dynamic = "force-dynamic";

/** The task's flags, newest first, outdated ones included (marked). */
export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  if (id === null || !(await getReviewState(actor, id))) return notFound("task");
  const items = await listTaskFlags(actor, id);
  return json({ items, next: null, total: items.length });
});

/** A manual flag `{note, severity?, evidence?}` on the task's current content: 201 with the flag. */
export const POST = route<{ id: string }>(
  "flag",
  async ({ actor, params, req }) => {
    const id = parseId(params.id);
    if (id === null) return notFound("task");
    const body = await readJson(req);
    if (!body.ok) return body.response;
    const parsed = newFlagSchema.safeParse(body.body);
    if (!parsed.success) return badRequest(parsed.error);
    const flag = await createManualFlag(actor, id, parsed.data);
    return flag ? json(flag, { status: 201 }) : notFound("task");
  },
  { body: "json" },
);
