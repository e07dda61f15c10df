import { apiError, badRequest, json, notFound, parseId } from "@/lib/api/http";
import { newReviewSchema } from "@/lib/api/review-schemas";
import { readJson, route } from "@/lib/api/route";
import { getReviewState, listReviews, recordReview } from "@/lib/data/reviews";

export const dynamic = "force-dynamic";

/** The task's decisions, newest first. */
export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  if (id === null || !(await getReviewState(actor, id))) return notFound("task");
  const items = await listReviews(actor, id);
  return json({ items, next: null, total: items.length });
});

/** A decision on the version the reviewer saw: 201 with the new state, 409 with the newer one. */
export const POST = route<{ id: string }>(
  "review",
  async ({ actor, params, req }) => {
    const id = parseId(params.id);
    if (id === null) return notFound("task");
    const body = await readJson(req);
    if (!body.ok) return body.response;
    const parsed = newReviewSchema.safeParse(body.body);
    if (!parsed.success) return badRequest(parsed.error);
    const { base_version } = parsed.data;
    if (base_version === undefined) {
      return apiError(428, "precondition_required", "send base_version: the task version your decision is based on");
    }
    const result = await recordReview(actor, id, { ...parsed.data, base_version });
    if (result.ok) return json(result.state, { status: 201 });
    if (result.problem === "not_found") return notFound("task");
    const last = result.current.last_review;
    const who = last ? ` (${last.decision} by ${last.by ?? "someone"} at ${last.at})` : "";
    return apiError(409, "conflict", `the task changed since version ${base_version}: it is at version ${result.current.version}${who}`, result.current);
  },
  { body: "json" },
);
