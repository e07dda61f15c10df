// Review queues on both databases: members from the task-table filter (adding twice is a no-op),
// concurrent reviewers never handed the same task, holds that lapse, skips, decisions made
// anywhere counting as done, archived queues.
import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows } from "@/db/client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { CLI_ACTOR, type Actor } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { parseTaskFilter, type TaskFilter } from "@/lib/tasks/filter";
import { auditLog, queueItems, queueReservations, tasks } from "../schema";
import { applyBulkDecision } from "./bulk-review";
import { nextInQueue, releaseReservation, skipInQueue } from "./queue-reservations";
import { addToQueue, createQueue, getQueue, refreshQueue, setQueueArchived } from "./queues";
import { recordReview } from "./reviews";
import { findTaskIds } from "./tasks";
import { createUser } from "./users";

const iso = (v: string) => new Date(v).toISOString();

function filter(qs: string): TaskFilter {
  const parsed = parseTaskFilter(new URLSearchParams(qs));
  if (!parsed.ok) throw new Error(`bad filter ${qs}`);
  return parsed.filter;
}

describe.each(BACKENDS)("review queues on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let ids = new Map<string, number>();
  const reviewers: Actor[] = [];

  const db = () => database.db;
  const reviewer = (i: number): Actor => {
    const r = reviewers[i];
    if (!r) throw new Error(`no reviewer ${i}`);
    return r;
  };
  const id = (ext: string) => ids.get(ext) ?? 0;
  const version = async (taskId: number) => (await db().select({ v: tasks.version }).from(tasks).where(eq(tasks.id, taskId)))[0]?.v ?? 0;
  const decide = async (taskId: number, who: Actor, decision: "accept" | "skip" | "needs-changes" = "accept") =>
    recordReview(db(), { taskId, decision, reason: null, note: null, baseVersion: await version(taskId) }, who);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    dir = writeFixtureRun("qx");
    await ingestPath(database.db, dir);
    ids = await findTaskIds(database.db, "qx", ["s1", "s2", "a1", "a2", "b1"]);
    for (let i = 0; i < 8; i++) {
      const email = `r${i}@example.org`;
      const u = await createUser(database.db, { email, role: "reviewer", password: "correct horse battery staple" }, CLI_ACTOR);
      reviewers.push({ kind: "user", id: u.id, label: email, role: "reviewer", userId: u.id });
    }
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a queue holds what the filter matches, in round order; adding again has no effect", async () => {
    const q = await createQueue(db(), { name: "accepted", filter: filter("run=qx&status=accepted&limit=10&cursor=abc") }, reviewer(0));
    expect(q.total).toBe(4);
    expect(q.done).toBe(0);
    expect(q.filter).toBe("run=qx&status=accepted");
    const order = await db().select({ task: queueItems.taskId }).from(queueItems).where(eq(queueItems.queueId, q.id)).orderBy(queueItems.position);
    expect(order.map((r) => r.task)).toEqual([id("s1"), id("s2"), id("a1"), id("b1")]);

    expect(await addToQueue(db(), q.id, { filter: filter("run=qx") }, reviewer(0))).toEqual({ added: 1, already: 4 });
    expect(await addToQueue(db(), q.id, { filter: filter("run=qx") }, reviewer(0))).toEqual({ added: 0, already: 5 });
    expect(await addToQueue(db(), q.id, { taskIds: [id("a1"), id("a1"), id("s1")] }, reviewer(0))).toEqual({ added: 0, already: 2 });
    expect(await refreshQueue(db(), q.id, reviewer(0))).toEqual({ added: 0, already: 4 });
    const [n] = await db().select({ n: sql<number>`count(*)`.mapWith(Number) }).from(queueItems).where(eq(queueItems.queueId, q.id));
    expect(n?.n).toBe(5);
    const audits = await db().select().from(auditLog).where(eq(auditLog.targetId, String(q.id)));
    expect(audits.map((a) => a.action)).toContain("queue.create");
    expect(await addToQueue(db(), 999_999, { taskIds: [id("s1")] }, reviewer(0))).toBeNull();
  });

  test("concurrent reviewers never get the same task; one too many gets none", async () => {
    const q = await createQueue(db(), { name: "race", filter: filter("run=qx") }, reviewer(0));
    const answers = await Promise.all(reviewers.slice(0, 6).map((r) => nextInQueue(db(), q.id, r)));
    const got = answers.map((a) => a?.current?.task_id ?? null);
    const handed = got.filter((t): t is number => t !== null);
    expect(handed.length).toBe(5);
    expect(new Set(handed).size).toBe(5);
    expect(got.filter((t) => t === null).length).toBe(1);
    // Asking again returns the same task (a reload, a second tab).
    const again = await nextInQueue(db(), q.id, reviewer(0));
    expect(again?.current?.task_id).toBe(got[0]);
    const holds = await db().select().from(queueReservations).where(eq(queueReservations.queueId, q.id));
    expect(holds.length).toBe(5);
  });

  test("prefetch holds two; after a decision the upcoming task becomes the current one", async () => {
    const q = await createQueue(db(), { name: "prefetch", filter: filter("run=qx&status=accepted") }, reviewer(0));
    const first = await nextInQueue(db(), q.id, reviewer(1), { prefetch: true });
    expect(first?.current?.task_id).toBe(id("s1"));
    expect(first?.upcoming?.task_id).toBe(id("s2"));
    const other = await nextInQueue(db(), q.id, reviewer(2), { prefetch: true });
    expect([other?.current?.task_id, other?.upcoming?.task_id]).toEqual([id("a1"), id("b1")]);

    expect((await decide(id("s1"), reviewer(1))).ok).toBe(true);
    const second = await nextInQueue(db(), q.id, reviewer(1), { prefetch: true });
    expect(second?.current?.task_id).toBe(id("s2"));
    expect(second?.upcoming).toBeNull();
    expect(second?.left).toBe(3);

    // A decision made elsewhere (the task page, another person) counts too; a skip decision does not.
    expect((await decide(id("a1"), reviewer(3), "skip")).ok).toBe(true);
    expect((await decide(id("b1"), reviewer(3))).ok).toBe(true);
    const detail = await getQueue(db(), q.id, reviewer(1));
    expect(detail?.progress).toMatchObject({ total: 4, done: 2, left: 2 });
    expect(detail?.progress.by_reviewer).toEqual([
      { reviewer: "r1@example.org", done: 1 },
      { reviewer: "r3@example.org", done: 1 },
    ]);
    expect(detail?.mine.history).toEqual([{ id: id("s1"), task_id: "s1", decision: "accept" }]);
  });

  test("a decision made before a task joined does not count; one after it does", async () => {
    const q = await createQueue(db(), { name: "old decisions", filter: filter("run=qx&round=0") }, reviewer(0));
    // s1 was accepted in the previous test, before this queue existed.
    const detail = await getQueue(db(), q.id, reviewer(0));
    expect(detail?.progress).toMatchObject({ total: 2, done: 0 });
  });

  test("done is kept on the members by the decision's own statement: every queue holding the task, bulk decisions too", async () => {
    const a = await createQueue(db(), { name: "done a", filter: filter("run=qx&round=1") }, reviewer(0));
    const b = await createQueue(db(), { name: "done b", filter: filter("run=qx&round_min=1") }, reviewer(0));
    type Member = { queue_id: number; task_id: number; done_at: string | null; derived: string | null; kept: string | null; latest: string | null };
    // What the member keeps (done_at; its latest decision, when and by whom) and what the reviews say.
    const doneAt = async () =>
      execRows<Member>(
        db(),
        sql`SELECT qi.queue_id, qi.task_id, qi.done_at, (SELECT min(r.created_at) FROM reviews r
              WHERE r.task_id = qi.task_id AND r.created_at >= qi.added_at AND r.decision <> 'skip') AS derived,
            json_build_object('decision', qi.decision, 'at', qi.decided_at, 'by', qi.decided_by, 'user', qi.decided_by_user)::text AS kept,
            (SELECT json_build_object('decision', r.decision, 'at', r.created_at, 'by', r.actor_label, 'user', r.user_id)::text FROM reviews r
              WHERE r.task_id = qi.task_id AND r.created_at >= qi.added_at AND r.decision <> 'skip' ORDER BY r.id DESC LIMIT 1) AS latest
            FROM queue_items qi WHERE qi.queue_id IN (${a.id}, ${b.id}) ORDER BY 1, 2`,
      );
    const keptIsLatest = (rows: Member[]) => {
      for (const r of rows) {
        if (r.latest === null) expect(JSON.parse(r.kept ?? "{}")).toEqual({ decision: null, at: null, by: null, user: null });
        else expect(r.kept).toBe(r.latest);
      }
    };
    expect((await doneAt()).every((r) => r.done_at === null)).toBe(true);
    // A skip decision and a refused (stale) one leave the members open.
    expect((await decide(id("a1"), reviewer(1), "skip")).ok).toBe(true);
    const stale = await recordReview(db(), { taskId: id("a2"), decision: "accept", reason: null, note: null, baseVersion: -1 }, reviewer(1));
    expect(stale.ok).toBe(false);
    expect((await doneAt()).every((r) => r.done_at === null)).toBe(true);
    // One decision: the task's member in both queues.
    expect((await decide(id("a1"), reviewer(1))).ok).toBe(true);
    const afterOne = await doneAt();
    expect(afterOne.filter((r) => r.done_at !== null).map((r) => [r.queue_id, r.task_id])).toEqual([
      [a.id, id("a1")],
      [b.id, id("a1")],
    ]);
    // A bulk decision on a filter: every member of its tasks, in the same statement.
    const bulk = filter("run=qx&round=2");
    const preview = await execRows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM tasks t JOIN runs r ON r.id = t.run_id WHERE r.name = 'qx' AND t.round = 2`);
    const applied = await applyBulkDecision(
      db(),
      { filter: bulk, search: "run=qx&round=2", decision: "reject", reason: "too easy", note: null, expectedCount: Number(preview[0]?.n), idempotencyKey: "done-at" },
      CLI_ACTOR,
    );
    expect(applied.ok).toBe(true);
    // A revision by someone else, through a token: the member stays done from the first decision
    // and now counts for the token.
    const token: Actor = { kind: "token", id: "token:77", label: "pipeline token", role: "reviewer", userId: null };
    expect((await decide(id("a1"), token, "needs-changes")).ok).toBe(true);
    const rows = await doneAt();
    // The stored time is what the reviews say, member by member, and so is the latest decision.
    for (const r of rows) expect(r.done_at === null ? null : iso(r.done_at)).toBe(r.derived === null ? null : iso(r.derived));
    keptIsLatest(rows);
    expect(JSON.parse(rows.find((r) => r.queue_id === a.id && r.task_id === id("a1"))?.kept ?? "{}")).toMatchObject({ decision: "needs-changes", by: "pipeline token", user: null });
    expect((await getQueue(db(), a.id, reviewer(1)))?.progress.by_reviewer).toContainEqual({ reviewer: "pipeline token", done: 1 });
    expect(rows.filter((r) => r.queue_id === b.id && r.done_at !== null).length).toBe(1 + Number(preview[0]?.n));
    expect((await getQueue(db(), b.id, reviewer(1)))?.progress.done).toBe(1 + Number(preview[0]?.n));
  });

  test("a skipped task is not handed to the same reviewer again, but to others", async () => {
    const q = await createQueue(db(), { name: "skips", filter: filter("run=qx&round=1") }, reviewer(0));
    const a = await nextInQueue(db(), q.id, reviewer(4));
    const first = a?.current?.task_id ?? 0;
    expect(await skipInQueue(db(), q.id, first, reviewer(4))).toBe(true);
    const b = await nextInQueue(db(), q.id, reviewer(4));
    expect(b?.current?.task_id).not.toBe(first);
    expect(b?.skipped).toBe(1);
    expect((await nextInQueue(db(), q.id, reviewer(5)))?.current?.task_id).toBe(first);
    // Both members handed out: nothing for reviewer 4 until they forget their skips.
    await releaseReservation(db(), q.id, reviewer(4));
    await releaseReservation(db(), q.id, reviewer(5));
    expect((await nextInQueue(db(), q.id, reviewer(4)))?.current?.task_id).not.toBe(first);
    await releaseReservation(db(), q.id, reviewer(4), { forgetSkips: true });
    expect((await nextInQueue(db(), q.id, reviewer(4), { prefetch: true }))?.upcoming).not.toBeNull();
  });

  test("a lapsed hold is free for the next reviewer", async () => {
    const q = await createQueue(db(), { name: "lapse", filter: filter("run=qx&round=2") }, reviewer(0));
    const a = await nextInQueue(db(), q.id, reviewer(5));
    expect(a?.current?.task_id).toBe(id("b1"));
    expect((await nextInQueue(db(), q.id, reviewer(6)))?.current).toBeNull();
    await db().execute(sql`UPDATE queue_reservations SET expires_at = now() - interval '1 second' WHERE queue_id = ${q.id}`);
    expect((await nextInQueue(db(), q.id, reviewer(6)))?.current?.task_id).toBe(id("b1"));
    // The first reviewer lost it: they are told there is nothing for them now.
    expect((await nextInQueue(db(), q.id, reviewer(5)))?.current).toBeNull();
  });

  test("a hold is renewed once it has lost a minute, and not rewritten before", async () => {
    const q = await createQueue(db(), { name: "renew", filter: filter("run=qx&round=2") }, reviewer(0));
    const first = await nextInQueue(db(), q.id, reviewer(7));
    const held = first?.current;
    expect(held?.task_id).toBe(id("b1"));
    // Asked again at once: the same hold, the same expiry (nothing written).
    const again = await nextInQueue(db(), q.id, reviewer(7));
    expect(again?.current).toEqual(held);
    // Two minutes of a 15-minute hold gone: the next ask renews it to a full 15 minutes.
    await db().execute(sql`UPDATE queue_reservations SET expires_at = now() + interval '13 minutes' WHERE queue_id = ${q.id}`);
    const renewed = await nextInQueue(db(), q.id, reviewer(7));
    expect(renewed?.current?.task_id).toBe(id("b1"));
    const [row] = await execRows<{ left_s: number }>(
      db(),
      sql`SELECT extract(epoch FROM expires_at - now())::float8 AS left_s FROM queue_reservations WHERE queue_id = ${q.id}`,
    );
    expect(Number(row?.left_s)).toBeGreaterThan(14 * 60);
    await releaseReservation(db(), q.id, reviewer(7));
  });

  test("an archived queue hands out nothing new", async () => {
    const q = await createQueue(db(), { name: "archived", filter: filter("run=qx&round=0") }, reviewer(0));
    expect((await setQueueArchived(db(), q.id, true, reviewer(0)))?.archived).toBe(true);
    expect((await nextInQueue(db(), q.id, reviewer(1)))?.current).toBeNull();
    expect(await addToQueue(db(), q.id, { taskIds: [id("a1")] }, reviewer(0))).toBeNull();
    expect(await nextInQueue(db(), 999_999, reviewer(1))).toBeNull();
  });
});
