// Bulk decisions through the data layer and the route: exactly the filter's tasks, one review and
// one audit row per task plus the bulk's own, a changed count refused with nothing written, a
// repeated idempotency key applied once, and the usual conflict for a page opened before.
import fs from "node:fs";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { findTaskIds } from "@/db/queries/tasks";
import { createToken } from "@/db/queries/tokens";
import { createUser } from "@/db/queries/users";
import { auditLog, reviews, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { canonicalFilter } from "@/lib/api/bulk-schemas";
import type { BulkPreviewJson, BulkResultJson } from "@/lib/api/types";
import { AuthError, CLI_ACTOR, type Actor } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { POST } from "@/app/api/v1/tasks/bulk/route";
import { applyBulkDecision, previewBulk } from "./bulk";
import { listReviews, recordReview } from "./reviews";

const TOKEN_ACTOR: Actor = { kind: "token", id: "token:7", label: 'token "nightly"', role: "reviewer", userId: null };

describe.each(BACKENDS)("bulk decisions on %s", (backend) => {
  let database: TestDatabase;
  const dirs: string[] = [];
  let reviewer: Actor;
  let viewer: Actor;
  let token = "";
  let runIds = new Map<string, number>();
  let key = 0;
  const nextKey = () => `test-key-${backend}-${++key}`;

  const filterOf = (search: string) => {
    const c = canonicalFilter(search);
    if (!c.ok) throw new Error(c.message);
    return c;
  };
  /** Each test gets a fresh pair of runs, so one test's decisions never shift another's counts. */
  const freshRuns = async (...names: string[]) => {
    for (const name of names) {
      const dir = writeFixtureRun(name);
      dirs.push(dir);
      await ingestPath(database.db, dir);
      for (const [ext, id] of await findTaskIds(database.db, name, ["s1", "s2", "a1", "a2", "b1"])) runIds.set(`${name}/${ext}`, id);
    }
  };
  const idOf = (name: string) => runIds.get(name) ?? 0;
  const stateOf = async (ids: number[]) =>
    (await database.db.select({ id: tasks.id, v: tasks.version, review: tasks.reviewState }).from(tasks).where(inArray(tasks.id, ids)).orderBy(tasks.id));
  const counts = async () => {
    const [r] = await database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(reviews);
    const [a] = await database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(auditLog);
    return { reviews: r?.n ?? 0, audit: a?.n ?? 0 };
  };

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    const r = await createUser(database.db, { email: "bulk-reviewer@example.org", role: "reviewer", password: "correct horse battery staple" }, CLI_ACTOR);
    reviewer = { kind: "user", id: r.id, label: "bulk-reviewer@example.org", role: "reviewer", userId: r.id };
    const v = await createUser(database.db, { email: "bulk-viewer@example.org", role: "viewer", password: "correct horse battery staple" }, CLI_ACTOR);
    viewer = { kind: "user", id: v.id, label: "bulk-viewer@example.org", role: "viewer", userId: v.id };
    token = (await createToken(database.db, { name: "script", role: "reviewer" }, CLI_ACTOR)).token;
  });
  beforeEach(() => {
    runIds = new Map();
  });
  afterAll(async () => {
    await database?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  test("applies to exactly the filter's tasks: one review and one audit row each, versions bumped, plus the bulk's audit row", async () => {
    await freshRuns("bk-a", "bk-b");
    const { filter, search } = filterOf("run=bk-a&round_min=1&sort=-round&cursor=abc&limit=2");
    expect(search).toBe("round_min=1&run=bk-a");
    const preview = await previewBulk(reviewer, filter, search);
    const chosen = ["bk-a/a1", "bk-a/a2", "bk-a/b1"].map(idOf).sort((x, y) => x - y);
    expect(preview).toMatchObject({ filter: search, count: 3, by_review: [{ review: "unreviewed", count: 3 }] });
    expect(preview.sample.map((s) => s.id)).toEqual(chosen);
    const before = await stateOf(chosen);
    const untouched = ["bk-a/s1", "bk-a/s2", "bk-b/a1", "bk-b/a2", "bk-b/b1"].map(idOf);
    const untouchedBefore = await stateOf(untouched);

    const result = await applyBulkDecision(reviewer, { filter, search, decision: "reject", reason: "too easy", note: "all trivial", expected_count: 3, idempotency_key: nextKey() });
    if (!result.ok) throw new Error("bulk refused");
    expect(result.result).toMatchObject({ count: 3, decision: "reject", reason: "too easy", review: "rejected", filter: search, replayed: false });

    expect(await stateOf(chosen)).toEqual(before.map((t) => ({ ...t, v: t.v + 1, review: "rejected" })));
    expect(await stateOf(untouched)).toEqual(untouchedBefore);
    const rows = await database.db.select().from(reviews).where(inArray(reviews.taskId, [...chosen, ...untouched]));
    expect(rows.map((r) => [r.taskId, r.decision, r.reason, r.note, r.baseVersion, r.userId]).sort()).toEqual(
      before.map((t) => [t.id, "reject", "too easy", "all trivial", t.v, reviewer.userId]).sort(),
    );
    const perTask = await database.db.select().from(auditLog).where(and(eq(auditLog.action, "review"), sql`${auditLog.details}->>'bulk_id' = ${String(result.result.bulk_id)}`));
    expect(perTask.map((a) => Number(a.targetId)).sort((x, y) => x - y)).toEqual(chosen);
    for (const a of perTask) {
      const review = rows.find((r) => r.taskId === Number(a.targetId));
      expect(a.details).toMatchObject({ review_id: review?.id, decision: "reject", base_version: review?.baseVersion, version: (review?.baseVersion ?? 0) + 1 });
    }
    const [bulk] = await database.db.select().from(auditLog).where(eq(auditLog.id, result.result.bulk_id));
    expect(bulk).toMatchObject({ action: "review.bulk", actorLabel: "bulk-reviewer@example.org", targetId: search, details: { filter: search, count: 3, decision: "reject", reason: "too easy" } });
    // The task pages' history shows the decision like any other.
    expect((await listReviews(viewer, idOf("bk-a/b1")))[0]).toMatchObject({ decision: "reject", by: "bulk-reviewer@example.org", note: "all trivial" });
  });

  test("a count that changed since the preview is refused with the new count, and nothing is written", async () => {
    await freshRuns("bk-c");
    const { filter, search } = filterOf("run=bk-c&review=unreviewed");
    expect((await previewBulk(reviewer, filter, search)).count).toBe(5);
    // Someone decides one of them meanwhile.
    const [s1] = await stateOf([idOf("bk-c/s1")]);
    expect((await recordReview(reviewer, idOf("bk-c/s1"), { decision: "accept", base_version: s1?.v ?? 0 })).ok).toBe(true);
    const before = await counts();
    const all = ["s1", "s2", "a1", "a2", "b1"].map((t) => idOf(`bk-c/${t}`));
    const versions = await stateOf(all);
    const stale = await applyBulkDecision(reviewer, { filter, search, decision: "skip", expected_count: 5, idempotency_key: nextKey() });
    expect(stale).toEqual({ ok: false, problem: "count_changed", count: 4 });
    expect(await counts()).toEqual(before);
    expect(await stateOf(all)).toEqual(versions);
    // The same key may be used again once the count is confirmed: nothing was stored for it.
    const k = nextKey();
    expect(await applyBulkDecision(reviewer, { filter, search, decision: "skip", expected_count: 6, idempotency_key: k })).toMatchObject({ ok: false, count: 4 });
    expect(await applyBulkDecision(reviewer, { filter, search, decision: "skip", expected_count: 4, idempotency_key: k })).toMatchObject({ ok: true, result: { count: 4 } });
  });

  test("a repeated idempotency key is answered, not applied again, also when both arrive at once", async () => {
    await freshRuns("bk-d");
    const { filter, search } = filterOf("run=bk-d&status=accepted");
    const k = nextKey();
    const input = { filter, search, decision: "needs-changes" as const, note: "fix the verifier", expected_count: 4, idempotency_key: k };
    const before = await counts();
    const [first, second] = await Promise.all([applyBulkDecision(reviewer, input), applyBulkDecision(reviewer, input)]);
    if (!first?.ok || !second?.ok) throw new Error("refused");
    expect([first.result.replayed, second.result.replayed].sort()).toEqual([false, true]);
    expect(first.result.bulk_id).toBe(second.result.bulk_id);
    expect(await counts()).toEqual({ reviews: before.reviews + 4, audit: before.audit + 5 });
    const third = await applyBulkDecision(reviewer, input);
    expect(third).toMatchObject({ ok: true, result: { replayed: true, count: 4, review: "needs-changes" } });
    expect(await counts()).toEqual({ reviews: before.reviews + 4, audit: before.audit + 5 });
    // Another actor's identical key is theirs: applied (on the bumped versions).
    const byToken = await applyBulkDecision(TOKEN_ACTOR, input);
    expect(byToken).toMatchObject({ ok: true, result: { replayed: false, count: 4 } });
    expect((await listReviews(viewer, idOf("bk-d/s1")))[0]).toMatchObject({ by: 'token "nightly"', decision: "needs-changes" });
  });

  test("a page opened before the bulk action gets the usual conflict; one decided after it is based on the new version", async () => {
    await freshRuns("bk-e");
    const id = idOf("bk-e/b1");
    const [seen] = await stateOf([id]);
    const { filter, search } = filterOf("run=bk-e&round=2");
    const bulk = await applyBulkDecision(reviewer, { filter, search, decision: "accept", expected_count: 1, idempotency_key: nextKey() });
    expect(bulk.ok).toBe(true);
    const stale = await recordReview(reviewer, id, { decision: "reject", reason: "duplicate", base_version: seen?.v ?? 0 });
    expect(stale).toMatchObject({ ok: false, problem: "conflict", current: { version: (seen?.v ?? 0) + 1, review: "accepted", last_review: { decision: "accept" } } });
    const fresh = await recordReview(reviewer, id, { decision: "reject", reason: "duplicate", base_version: (seen?.v ?? 0) + 1 });
    expect(fresh.ok).toBe(true);
  });

  test("a single decision racing the bulk action: either wins, nothing is lost, versions chain", async () => {
    await freshRuns("bk-g");
    const id = idOf("bk-g/a1");
    const [seen] = await stateOf([id]);
    const v = seen?.v ?? 0;
    const { filter, search } = filterOf("run=bk-g&status=accepted");
    const [bulk, single] = await Promise.all([
      applyBulkDecision(reviewer, { filter, search, decision: "skip", expected_count: 4, idempotency_key: nextKey() }),
      recordReview(reviewer, id, { decision: "accept", base_version: v }),
    ]);
    expect(bulk.ok).toBe(true);
    const history = await database.db.select().from(reviews).where(eq(reviews.taskId, id)).orderBy(reviews.id);
    const [now] = await stateOf([id]);
    if (single.ok) {
      // The single decision came first: the bulk one is based on the version it left.
      expect(history.map((r) => [r.decision, r.baseVersion])).toEqual([["accept", v], ["skip", v + 1]]);
      expect(now).toMatchObject({ v: v + 2, review: "skipped" });
    } else {
      expect(single).toMatchObject({ problem: "conflict", current: { version: v + 1, review: "skipped" } });
      expect(history.map((r) => [r.decision, r.baseVersion])).toEqual([["skip", v]]);
      expect(now).toMatchObject({ v: v + 1, review: "skipped" });
    }
  });

  test("viewers and the signed-out may not preview or apply", async () => {
    const { filter, search } = filterOf("run=nothing");
    await expect(previewBulk(viewer, filter, search)).rejects.toBeInstanceOf(AuthError);
    await expect(applyBulkDecision(viewer, { filter, search, decision: "skip", expected_count: 0, idempotency_key: nextKey() })).rejects.toMatchObject({ status: 403 });
    await expect(applyBulkDecision(null, { filter, search, decision: "skip", expected_count: 0, idempotency_key: nextKey() })).rejects.toMatchObject({ status: 401 });
  });

  describe("the route", () => {
    const post = (body: unknown) =>
      POST(
        new Request("http://localhost:3000/api/v1/tasks/bulk", {
          method: "POST",
          headers: { host: "localhost:3000", authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({}) },
      );
    type Err = { error: { code: string; message: string; details?: unknown } };

    test("dry run, 201, 200 on a repeat, 409 with the new count, 428 and 400s", async () => {
      await freshRuns("bk-f");
      const filter = { run: "bk-f", round: 1 };
      const dry = await post({ filter, decision: "reject", reason: "duplicate", dry_run: true });
      expect(dry.status).toBe(200);
      expect((await dry.json()) as BulkPreviewJson).toMatchObject({ filter: "round=1&run=bk-f", count: 2 });

      const wrong = await post({ filter: "run=bk-f&round=1", decision: "reject", reason: "duplicate", expected_count: 3, idempotency_key: "route-key-1" });
      expect(wrong.status).toBe(409);
      const err = (await wrong.json()) as Err;
      expect(err.error).toMatchObject({ code: "count_changed", details: { count: 2 } });

      const ok = await post({ filter: "?run=bk-f&round=1", decision: "reject", reason: "duplicate", note: "same as a1", expected_count: 2, idempotency_key: "route-key-1" });
      expect(ok.status).toBe(201);
      const applied = (await ok.json()) as BulkResultJson;
      expect(applied).toMatchObject({ count: 2, review: "rejected", replayed: false });
      const again = await post({ filter, decision: "reject", reason: "duplicate", note: "same as a1", expected_count: 2, idempotency_key: "route-key-1" });
      expect(again.status).toBe(200);
      expect((await again.json()) as BulkResultJson).toMatchObject({ bulk_id: applied.bulk_id, replayed: true });

      expect((await post({ filter, decision: "accept", idempotency_key: "route-key-2" })).status).toBe(428);
      expect((await post({ filter, decision: "accept", expected_count: 2 })).status).toBe(428);
      const typo = await post({ filter: "run=bk-f&reveiw=unreviewed", decision: "accept", dry_run: true });
      expect(typo.status).toBe(400);
      expect(((await typo.json()) as Err).error.message).toContain("reveiw");
      const everything = await post({ filter: "sort=round&limit=10", decision: "accept", dry_run: true });
      expect(everything.status).toBe(400);
      expect(((await everything.json()) as Err).error.message).toContain("needs a filter");
      expect((await post({ filter, decision: "reject", dry_run: true })).status).toBe(400);
      expect((await post({ filter, decision: "accept", reason: "too easy", dry_run: true })).status).toBe(400);
      expect((await post({ filter, decision: "accept", dry_run: true, extra: 1 })).status).toBe(400);
      expect((await post({ filter: "run=bk-f&round=x", decision: "accept", dry_run: true })).status).toBe(400);
      expect((await post({ filter, decision: "accept", expected_count: 2, idempotency_key: "short" })).status).toBe(400);
    });
  });
});
