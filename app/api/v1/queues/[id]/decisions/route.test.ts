// Submit-and-next in one request: the decision comes first (as the reviews route answers it), then
// the next holds with the member data the caller lacks and, when asked, the progress; a refused
// decision is answered as the reviews route does and changes nothing.
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { createQueue } from "@/db/queries/queues";
import { createToken } from "@/db/queries/tokens";
import { reviews, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { QueueDecisionFollowUpJson, QueueNextJson, ReviewStateJson } from "@/lib/api/types";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { loadQueueMember } from "@/lib/review/member";
import { parseTaskFilter } from "@/lib/tasks/filter";
import { POST } from "./route";
import { POST as postNext } from "../next/route";

describe.each(BACKENDS)("a decision made in a queue on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let token = "";
  let queueId = 0;

  const call = (handler: typeof POST, url: string, body?: unknown) =>
    handler(
      new Request(`http://localhost:3000${url}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body ?? {}),
      }),
      { params: Promise.resolve({ id: String(queueId) }) },
    );
  const version = async (taskId: number) => (await database.db.select({ v: tasks.version }).from(tasks).where(eq(tasks.id, taskId)))[0]?.v ?? 0;
  const lines = async (res: Response) =>
    (await res.text())
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as unknown);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("qd");
    await ingestPath(database.db, dir);
    token = (await createToken(database.db, { name: "reviewer", role: "reviewer" }, CLI_ACTOR)).token;
    const parsed = parseTaskFilter(new URLSearchParams("run=qd"));
    if (!parsed.ok) throw new Error("filter");
    queueId = (await createQueue(database.db, { name: "qd", filter: parsed.filter }, CLI_ACTOR)).id;
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the decision, then the next holds with the member data not yet had, then the progress", async () => {
    const held = (await (await call(postNext, `/api/v1/queues/${queueId}/next?prefetch=1`)).json()) as QueueNextJson;
    const current = held.current?.task_id ?? 0;
    const upcoming = held.upcoming?.task_id ?? 0;
    expect(current).toBeGreaterThan(0);
    expect(upcoming).toBeGreaterThan(0);

    const res = await call(POST, `/api/v1/queues/${queueId}/decisions`, { task_id: current, decision: "accept", base_version: await version(current), have: [current, upcoming], progress: true });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const [first, second, ...rest] = await lines(res);
    expect(rest).toEqual([]);
    const state = (first as { decision: ReviewStateJson }).decision;
    expect(state).toMatchObject({ task_id: current, version: (await version(current)), review: "accepted" });
    expect(state.last_review).toMatchObject({ decision: "accept", by: 'token "reviewer"' });

    const follow = second as QueueDecisionFollowUpJson;
    // The prefetched task moves up; a new one is held after it, and only its data comes.
    expect(follow.next?.current?.task_id).toBe(upcoming);
    const after = follow.next?.upcoming?.task_id ?? 0;
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(current);
    expect(follow.members.map((m) => m.task.id)).toEqual([after]);
    expect(follow.members[0]).toEqual(await loadQueueMember(CLI_ACTOR, queueId, after));
    expect(follow.queue?.progress.done).toBe(1);

    // Without `have` and `progress`: both members' data, no progress.
    const again = await call(POST, `/api/v1/queues/${queueId}/decisions`, { task_id: upcoming, decision: "needs-changes", base_version: await version(upcoming) });
    const [, next] = (await lines(again)) as [unknown, QueueDecisionFollowUpJson];
    expect(next.queue).toBeNull();
    expect(next.members.map((m) => m.task.id)).toEqual([next.next?.current?.task_id, next.next?.upcoming?.task_id]);
    expect(next.next?.current?.task_id).toBe(after);
  });

  test("a stale decision gets the reviews route's 409 with the newer state, and nothing is written", async () => {
    const held = (await (await call(postNext, `/api/v1/queues/${queueId}/next?prefetch=1`)).json()) as QueueNextJson;
    const taskId = held.current?.task_id ?? 0;
    const stale = (await version(taskId)) - 1 || 999;
    const before = await database.db.select({ id: reviews.id }).from(reviews).where(eq(reviews.taskId, taskId));
    const res = await call(POST, `/api/v1/queues/${queueId}/decisions`, { task_id: taskId, decision: "accept", base_version: stale });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string; details: ReviewStateJson } };
    expect(body.error.code).toBe("conflict");
    expect(body.error.details.version).toBe(await version(taskId));
    expect(await database.db.select({ id: reviews.id }).from(reviews).where(eq(reviews.taskId, taskId))).toEqual(before);
    // The holds did not move: the same task is still the caller's.
    const still = (await (await call(postNext, `/api/v1/queues/${queueId}/next?prefetch=1`)).json()) as QueueNextJson;
    expect(still.current?.task_id).toBe(taskId);

    expect((await call(POST, `/api/v1/queues/${queueId}/decisions`, { task_id: taskId, decision: "accept" })).status).toBe(428);
    expect((await call(POST, `/api/v1/queues/${queueId}/decisions`, { task_id: taskId, decision: "reject", base_version: 1 })).status).toBe(400);
    expect((await call(POST, `/api/v1/queues/${queueId}/decisions`, { task_id: 999_999, decision: "accept", base_version: 1 })).status).toBe(404);
  });
});
