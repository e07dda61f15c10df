import { badRequest, json, notFound, parseId } from "@/lib/api/http";
import { baseVersionRequired, refusedDecision } from "@/lib/api/review-answer";
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
    if (base_version === undefined) return baseVersionRequired();
    const result = await recordReview(actor, id, { ...parsed.data, base_version });
    return result.ok ? json(result.state, { status: 201 }) : refusedDecision(result, base_version);
  },
  { body: "json" },
);
