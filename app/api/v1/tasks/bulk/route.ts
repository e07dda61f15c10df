import { bulkRequestSchema, canonicalFilter, hasCondition } from "@/lib/api/bulk-schemas";
import { apiError, badRequest, json } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { applyBulkDecision, previewBulk } from "@/lib/data/bulk";

export const dynamic = "force-dynamic";

/**
 * A decision on every task a filter matches. `dry_run: true` answers the count to confirm; the
 * write needs that count back (`expected_count`, else 409 with the new one) and an
 * `idempotency_key` (a repeat is answered 200 with the first result, nothing applied twice).
 */
export const POST = route(
  "review",
  async ({ actor, req }) => {
    const body = await readJson(req);
    if (!body.ok) return body.response;
    const parsed = bulkRequestSchema.safeParse(body.body);
    if (!parsed.success) return badRequest(parsed.error);
    const { filter: rawFilter, dry_run, expected_count, idempotency_key, ...decision } = parsed.data;
    const canonical = canonicalFilter(rawFilter);
    if (!canonical.ok) return apiError(400, "bad_filter", canonical.message, canonical.details);
    if (!hasCondition(canonical.filter)) return apiError(400, "bad_filter", "a bulk action needs a filter: at least one condition (a run, a round, a status…)");
    const { filter, search } = canonical;
    if (dry_run) return json(await previewBulk(actor, filter, search));
    if (expected_count === undefined) return apiError(428, "precondition_required", "send expected_count: the number of matching tasks you confirmed (ask with dry_run: true)");
    if (idempotency_key === undefined) return apiError(428, "precondition_required", "send idempotency_key: a unique string for this action, so that a repeat is not applied twice");
    const result = await applyBulkDecision(actor, { ...decision, filter, search, expected_count, idempotency_key });
    if (result.ok) return json(result.result, { status: result.result.replayed ? 200 : 201 });
    const preview = await previewBulk(actor, filter, search);
    return apiError(409, "count_changed", `the filter matches ${result.count} tasks now, not ${expected_count}: nothing was changed; confirm the new count`, preview);
  },
  { body: "json" },
);
