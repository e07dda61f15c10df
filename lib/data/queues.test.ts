// The queue routes as a script uses them (a reviewer token): make a queue from a filter, add to it
// twice, work it with next/skip, read the screen data and the progress; bad input and roles.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { findTaskIds } from "@/db/queries/tasks";
import { createToken } from "@/db/queries/tokens";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { QueueAddJson, QueueDetailJson, QueueJson, QueueNextJson, QueueTaskJson } from "@/lib/api/types";
import { AuthError, CLI_ACTOR, type Actor } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import * as list from "@/app/api/v1/queues/route";
import * as one from "@/app/api/v1/queues/[id]/route";
import * as items from "@/app/api/v1/queues/[id]/items/route";
import * as next from "@/app/api/v1/queues/[id]/next/route";
import * as skip from "@/app/api/v1/queues/[id]/skip/route";
import * as member from "@/app/api/v1/queues/[id]/tasks/[taskId]/route";
import { POST as postReview } from "@/app/api/v1/tasks/[id]/reviews/route";
import { createQueue, nextInQueue } from "./queues";

const VIEWER: Actor = { kind: "user", id: "v", label: "viewer", role: "viewer", userId: null };

describe.each(BACKENDS)("queue routes on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let ids = new Map<string, number>();
  let token = "";
  let other = "";

  const req = (method: string, url: string, body?: unknown, bearer = token) =>
    new Request(`http://localhost:3000${url}`, {
      method,
      headers: { host: "localhost:3000", authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("qr");
    await ingestPath(database.db, dir);
    ids = await findTaskIds(database.db, "qr", ["s1", "s2", "a1", "a2", "b1"]);
    token = (await createToken(database.db, { name: "script", role: "reviewer" }, CLI_ACTOR)).token;
    other = (await createToken(database.db, { name: "other", role: "reviewer" }, CLI_ACTOR)).token;
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a script makes a queue from a filter, works it and sees the progress", async () => {
    const made = await list.POST(req("POST", "/api/v1/queues", { name: "script", filter: "/tasks?run=qr&status=accepted" }), ctx({}));
    expect(made.status).toBe(201);
    const queue = (await made.json()) as QueueJson;
    expect(queue).toMatchObject({ total: 4, done: 0, filter: "run=qr&status=accepted", created_by: 'token "script"' });
    const id = String(queue.id);

    const add = async (body: unknown) => (await (await items.POST(req("POST", `/api/v1/queues/${id}/items`, body), ctx({ id }))).json()) as QueueAddJson;
    expect(await add({ task_ids: [ids.get("a2"), ids.get("a2")] })).toEqual({ added: 1, already: 0 });
    expect(await add({ task_ids: [ids.get("a2")] })).toEqual({ added: 0, already: 1 });
    expect(await add({ refresh: true })).toEqual({ added: 0, already: 4 });

    const first = (await (await next.POST(req("POST", `/api/v1/queues/${id}/next?prefetch=1`), ctx({ id }))).json()) as QueueNextJson;
    expect(first.current?.task_id).toBe(ids.get("s1"));
    expect(first.upcoming?.task_id).toBe(ids.get("s2"));
    // Another reviewer is handed neither of them.
    const theirs = (await (await next.POST(req("POST", `/api/v1/queues/${id}/next`, undefined, other), ctx({ id }))).json()) as QueueNextJson;
    expect(theirs.current?.task_id).toBe(ids.get("a1"));

    const screen = await member.GET(req("GET", `/api/v1/queues/${id}/tasks/${first.current?.task_id}`), ctx({ id, taskId: String(first.current?.task_id) }));
    expect(screen.status).toBe(200);
    const item = (await screen.json()) as QueueTaskJson;
    expect(item).toMatchObject({ queue_id: queue.id, done: false, reserved_by: 'token "script"', diff: null });
    expect(item.instruction).toContain("s1");
    expect(item.trials.length).toBe(2);
    const child = (await (await member.GET(req("GET", "/x"), ctx({ id, taskId: String(ids.get("a1")) }))).json()) as QueueTaskJson;
    expect(child.diff?.from.task_id).toBe("s1");
    expect(child.diff?.changes.length).toBeGreaterThan(0);
    expect(child.diff?.files).toBeNull();
    const withFiles = (await (await member.GET(req("GET", "/x?files=1"), ctx({ id, taskId: String(ids.get("a1")) }))).json()) as QueueTaskJson;
    expect(withFiles.diff?.files?.map((f) => f.path)).toEqual(child.diff?.changes.map((c) => c.path));

    const taskId = first.current?.task_id ?? 0;
    const decided = await postReview(req("POST", `/api/v1/tasks/${taskId}/reviews`, { decision: "accept", base_version: item.task.version }), ctx({ id: String(taskId) }));
    expect(decided.status).toBe(201);
    const stale = await postReview(req("POST", `/api/v1/tasks/${taskId}/reviews`, { decision: "reject", reason: "too easy", base_version: item.task.version }, other), ctx({ id: String(taskId) }));
    expect(stale.status).toBe(409);

    const second = (await (await next.POST(req("POST", `/api/v1/queues/${id}/next?prefetch=1`), ctx({ id }))).json()) as QueueNextJson;
    expect(second.current?.task_id).toBe(ids.get("s2"));
    expect(second.upcoming?.task_id).toBe(ids.get("b1"));
    expect((await skip.POST(req("POST", `/api/v1/queues/${id}/skip`, { task_id: ids.get("s2") }), ctx({ id }))).status).toBe(200);
    const third = (await (await next.POST(req("POST", `/api/v1/queues/${id}/next`), ctx({ id }))).json()) as QueueNextJson;
    expect(third).toMatchObject({ current: { task_id: ids.get("b1") }, skipped: 1, left: 4 });

    const detail = (await (await one.GET(req("GET", `/api/v1/queues/${id}`), ctx({ id }))).json()) as QueueDetailJson;
    expect(detail.progress).toMatchObject({ total: 5, done: 1, left: 4, by_reviewer: [{ reviewer: 'token "script"', done: 1 }] });
    expect(detail.progress.reserved).toBe(2);

    const archived = await one.PATCH(req("PATCH", `/api/v1/queues/${id}`, { archived: true }), ctx({ id }));
    expect(((await archived.json()) as QueueJson).archived).toBe(true);
    expect((await items.POST(req("POST", `/api/v1/queues/${id}/items`, { refresh: true }), ctx({ id }))).status).toBe(404);
    const listed = (await (await list.GET(req("GET", "/api/v1/queues?archived=1"), ctx({}))).json()) as { items: QueueJson[] };
    expect(listed.items.map((q) => q.id)).toContain(queue.id);
  });

  test("bad input is a 400 or 404 naming the problem", async () => {
    const bad = await list.POST(req("POST", "/api/v1/queues", { name: "x", filter: "round=abc" }), ctx({}));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("bad_filter");
    expect((await list.POST(req("POST", "/api/v1/queues", { name: "", filter: "" }), ctx({}))).status).toBe(400);
    expect((await list.POST(req("POST", "/api/v1/queues", { name: "x", filter: "", extra: 1 }), ctx({}))).status).toBe(400);
    expect((await next.POST(req("POST", "/api/v1/queues/999999/next"), ctx({ id: "999999" }))).status).toBe(404);
    expect((await next.POST(req("POST", "/api/v1/queues/abc/next"), ctx({ id: "abc" }))).status).toBe(404);
    expect((await items.POST(req("POST", "/api/v1/queues/1/items", { task_ids: [] }), ctx({ id: "1" }))).status).toBe(400);
    expect((await member.GET(req("GET", "/x"), ctx({ id: "1", taskId: "999999" }))).status).toBe(404);
  });

  test("viewers read queues but cannot make or work them", async () => {
    const q = await createQueue(CLI_ACTOR, { name: "roles", filter: { run: "qr", limit: 50 } });
    await expect(createQueue(VIEWER, { name: "no", filter: { limit: 50 } })).rejects.toBeInstanceOf(AuthError);
    await expect(nextInQueue(VIEWER, q.id)).rejects.toMatchObject({ status: 403 });
    await expect(nextInQueue(null, q.id)).rejects.toMatchObject({ status: 401 });
  });
});
