// The canonical task filter of bulk actions and saved views: strict about keys, stable in order.
import { describe, expect, test } from "vitest";
import { bulkRequestSchema, canonicalFilter, hasCondition } from "./bulk-schemas";

describe("canonicalFilter", () => {
  test("a query string and an object give the same canonical string; page keys are dropped unless kept", () => {
    const a = canonicalFilter("?status=rejected&run=demo&round=3&cursor=abc&limit=100&sort=-round");
    const b = canonicalFilter({ run: "demo", round: 3, status: "rejected" });
    expect(a).toMatchObject({ ok: true, search: "round=3&run=demo&status=rejected" });
    expect(b).toMatchObject({ ok: true, search: "round=3&run=demo&status=rejected" });
    expect(canonicalFilter("run=demo&sort=-round&limit=100&cursor=abc", ["sort", "limit"])).toMatchObject({ ok: true, search: "limit=100&run=demo&sort=-round" });
  });

  test("unknown, repeated or invalid keys are errors, never dropped", () => {
    expect(canonicalFilter("run=demo&reveiw=unreviewed")).toEqual({ ok: false, message: "unknown filter key: reveiw" });
    expect(canonicalFilter({ run: "demo", __proto__x: "1" })).toMatchObject({ ok: false });
    expect(canonicalFilter("review=rejected&review=accepted")).toMatchObject({ ok: false, message: "a filter key given twice: review" });
    expect(canonicalFilter("review=maybe")).toMatchObject({ ok: false, message: "invalid filter" });
  });

  test("a filter without a condition is told apart", () => {
    const all = canonicalFilter("sort=round&limit=10");
    const one = canonicalFilter("operator=append-step");
    if (!all.ok || !one.ok) throw new Error("did not parse");
    expect(hasCondition(all.filter)).toBe(false);
    expect(hasCondition(one.filter)).toBe(true);
  });

  test("the request: a rejection needs a reason and only a rejection has one", () => {
    expect(bulkRequestSchema.safeParse({ filter: "run=x", decision: "reject", reason: "too easy" }).success).toBe(true);
    expect(bulkRequestSchema.safeParse({ filter: "run=x", decision: "reject" }).success).toBe(false);
    expect(bulkRequestSchema.safeParse({ filter: "run=x", decision: "skip", reason: "too easy" }).success).toBe(false);
    expect(bulkRequestSchema.safeParse({ filter: "run=x", decision: "skip", idempotency_key: "a b c d e f g h" }).success).toBe(false);
  });
});
