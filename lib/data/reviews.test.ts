// Review decisions through the data layer and the route: optimistic concurrency (exactly one of
// many concurrent decisions on a version wins), the append-only history, audit, 409 and 428.
import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { findTaskIds } from "@/db/queries/tasks";
import { createToken } from "@/db/queries/tokens";
import { createUser } from "@/db/queries/users";
import { auditLog, reviews, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { ReviewJson, ReviewStateJson } from "@/lib/api/types";
import { AuthError, CLI_ACTOR, type Actor } from "@/lib/auth/actor";
import type { Role } from "@/lib/domain";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { GET, POST } from "@/app/api/v1/tasks/[id]/reviews/route";
import { getTask } from "./read";
import { listReviews, recordReview } from "./reviews";

const TOKEN_ACTOR: Actor = { kind: "token", id: "token:1", label: 'token "nightly"', role: "reviewer", userId: null };

describe.each(BACKENDS)("review decisions on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let ids = new Map<string, number>();
  const people: Partial<Record<Role, Actor>> = {};
  let token = "";

  const person = (role: Role): Actor => {
    const a = people[role];
    if (!a) throw new Error(`no ${role}`);
    return a;
  };
  const taskOf = (ext: string) => ids.get(ext) ?? 0;
  const versionOf = async (id: number) => (await database.db.select({ v: tasks.version }).from(tasks).where(eq(tasks.id, id)))[0]?.v ?? 0;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("rv");
    await ingestPath(database.db, dir);
    ids = await findTaskIds(database.db, "rv", ["s1", "a1", "a2", "b1", "b2"]);
    for (const role of ["viewer", "reviewer", "admin"] as const) {
      const email = `${role}@example.org`;
      const u = await createUser(database.db, { email, role, password: "correct horse battery staple" }, CLI_ACTOR);
      people[role] = { kind: "user", id: u.id, label: email, role, userId: u.id };
    }
    token = (await createToken(database.db, { name: "script", role: "reviewer" }, CLI_ACTOR)).token;
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("100 concurrent decisions on the same version: exactly one wins, 99 conflict, one history row", async () => {
    const id = taskOf("a1");
    const base = await versionOf(id);
    const decisions = ["accept", "reject", "needs-changes", "skip"] as const;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const decision = decisions[i % decisions.length] ?? "accept";
        const actor = i % 2 === 0 ? person("reviewer") : person("admin");
        return recordReview(actor, id, { decision, reason: decision === "reject" ? "too easy" : undefined, note: `attempt ${i}`, base_version: base });
      }),
    );
    const won = results.filter((r) => r.ok);
    const lost = results.filter((r) => !r.ok && r.problem === "conflict");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(99);
    const winner = won[0];
    if (!winner?.ok) throw new Error("no winner");
    expect(winner.state.version).toBe(base + 1);
    for (const r of lost) if (!r.ok && r.problem === "conflict") expect(r.current).toMatchObject({ version: base + 1, review: winner.state.review });
    const history = await database.db.select().from(reviews).where(eq(reviews.taskId, id));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ baseVersion: base, decision: winner.state.last_review?.decision });
    const audit = await database.db.select().from(auditLog).where(sql`${auditLog.action} = 'review' and ${auditLog.targetId} = ${String(id)}`);
    expect(audit).toHaveLength(1);
    expect(await versionOf(id)).toBe(base + 1);
  });

  test("decisions build a newest-first history with who, reason, note and content hash; the state follows the last", async () => {
    const id = taskOf("a2");
    const v1 = await versionOf(id);
    const first = await recordReview(person("reviewer"), id, { decision: "reject", reason: "verifier too weak", note: "tests only check the file exists", base_version: v1 });
    if (!first.ok) throw new Error("first decision refused");
    expect(first.state).toMatchObject({ version: v1 + 1, review: "rejected", last_review: { decision: "reject", by: "reviewer@example.org" } });
    // A token decides next: no user, the token's label is recorded (and shown) instead.
    const second = await recordReview(TOKEN_ACTOR, id, { decision: "accept", base_version: v1 + 1 });
    if (!second.ok) throw new Error("second decision refused");
    const history = await listReviews(person("viewer"), id);
    expect(history.map((r) => [r.decision, r.by, r.base_version])).toEqual([
      ["accept", 'token "nightly"', v1 + 1],
      ["reject", "reviewer@example.org", v1],
    ]);
    expect(history[1]).toMatchObject({ reason: "verifier too weak", note: "tests only check the file exists" });
    const [task] = await database.db.select().from(tasks).where(eq(tasks.id, id));
    expect(task).toMatchObject({ reviewState: "accepted", version: v1 + 2 });
    expect(history.every((r) => r.content_hash === task?.contentHash)).toBe(true);
    const [tokenRow] = await database.db.select().from(reviews).where(eq(reviews.id, history[0]?.id ?? 0));
    expect(tokenRow?.userId).toBeNull();
    expect(await getTask(person("viewer"), id)).toMatchObject({ review: "accepted", version: v1 + 2, last_review: { decision: "accept", by: 'token "nightly"' } });
  });

  test("a stale decision after a re-import changes nothing and is told the current state", async () => {
    const id = taskOf("b1");
    const seen = await versionOf(id);
    const decided = await recordReview(person("admin"), id, { decision: "needs-changes", note: "rename the output", base_version: seen });
    expect(decided.ok).toBe(true);
    // What a re-import of changed content does to the task.
    await database.db.update(tasks).set({ contentHash: "changed", version: sql`${tasks.version} + 1` }).where(eq(tasks.id, id));
    const stale = await recordReview(person("reviewer"), id, { decision: "accept", base_version: seen + 1 });
    expect(stale).toMatchObject({ ok: false, problem: "conflict", current: { version: seen + 2, review: "needs-changes", content_hash: "changed", last_review: { decision: "needs-changes", by: "admin@example.org" } } });
    const history = await listReviews(person("viewer"), id);
    expect(history).toHaveLength(1);
    expect(history[0]?.content_hash).not.toBe("changed");
    expect(await recordReview(person("reviewer"), 999_999, { decision: "skip", base_version: 1 })).toEqual({ ok: false, problem: "not_found" });
  });

  test("viewers and the signed-out may read the history but not decide", async () => {
    const id = taskOf("b2");
    await expect(recordReview(person("viewer"), id, { decision: "accept", base_version: await versionOf(id) })).rejects.toBeInstanceOf(AuthError);
    await expect(recordReview(null, id, { decision: "accept", base_version: 1 })).rejects.toMatchObject({ status: 401 });
    await expect(listReviews(null, id)).rejects.toMatchObject({ status: 401 });
    expect(await listReviews(person("viewer"), id)).toEqual([]);
  });

  describe("the route", () => {
    const post = (id: number, body: unknown) =>
      POST(
        new Request(`http://localhost:3000/api/v1/tasks/${id}/reviews`, {
          method: "POST",
          headers: { host: "localhost:3000", authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({ id: String(id) }) },
      );
    const get = (id: number) =>
      GET(new Request(`http://localhost:3000/api/v1/tasks/${id}/reviews`, { headers: { host: "localhost:3000", authorization: `Bearer ${token}` } }), {
        params: Promise.resolve({ id: String(id) }),
      });

    test("201 with the new version; 409 with the newer state; 428 without a base version; 400 for a reject without reason", async () => {
      const id = taskOf("s1");
      const base = await versionOf(id);
      const ok = await post(id, { decision: "skip", note: "later", base_version: base });
      expect(ok.status).toBe(201);
      expect((await ok.json()) as ReviewStateJson).toMatchObject({ task_id: id, version: base + 1, review: "skipped", last_review: { by: 'token "script"', note: "later" } });

      const stale = await post(id, { decision: "accept", base_version: base });
      expect(stale.status).toBe(409);
      const err = (await stale.json()) as { error: { code: string; message: string; details: ReviewStateJson } };
      expect(err.error.code).toBe("conflict");
      expect(err.error.details).toMatchObject({ version: base + 1, review: "skipped", last_review: { decision: "skip", by: 'token "script"' } });

      const missing = await post(id, { decision: "accept" });
      expect(missing.status).toBe(428);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("precondition_required");
      expect((await post(id, { decision: "reject", base_version: base + 1 })).status).toBe(400);
      expect((await post(id, { decision: "accept", reason: "too easy", base_version: base + 1 })).status).toBe(400);
      expect((await post(id, { decision: "accept", base_version: base + 1, extra: 1 })).status).toBe(400);
      expect((await post(id, { decision: "maybe", base_version: base + 1 })).status).toBe(400);
      expect((await post(999_999, { decision: "accept", base_version: 1 })).status).toBe(404);

      const list = await get(id);
      expect(list.status).toBe(200);
      const { items } = (await list.json()) as { items: ReviewJson[] };
      expect(items.map((r) => r.decision)).toEqual(["skip"]);
      expect((await get(999_999)).status).toBe(404);
    });
  });
});
