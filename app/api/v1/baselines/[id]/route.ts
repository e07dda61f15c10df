import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { deleteBaseline, getBaseline } from "@/lib/data/baselines";

export const dynamic = "force-dynamic";

/** One baseline with its frozen statistics (the shape of `GET /api/v1/runs/{run}/rounds`). */
export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const baseline = id === null ? null : await getBaseline(actor, id);
  return baseline ? json(baseline) : notFound("baseline");
});

export const DELETE = route<{ id: string }>("admin", async ({ actor, params }) => {
  const id = parseId(params.id);
  if (id === null || !(await deleteBaseline(actor, id))) return notFound("baseline");
  return json({ ok: true });
});
