// Flags through the routes: a manual flag by token, the reason a closing needs, strict bodies,
// 404s, and the list's filters as URL parameters.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { findTaskIds } from "@/db/queries/tasks";
import { createToken } from "@/db/queries/tokens";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { FlagJson } from "@/lib/api/types";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { GET as listRoute } from "@/app/api/v1/flags/route";
import { PATCH } from "@/app/api/v1/flags/[id]/route";
import { POST } from "@/app/api/v1/tasks/[id]/flags/route";

const BASE = "http://localhost:3000";

describe.each(BACKENDS)("flag routes on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let token = "";
  let a1 = 0;
  const headers = () => ({ host: "localhost:3000", authorization: `Bearer ${token}`, "content-type": "application/json" });
  const post = (taskId: string, body: unknown) =>
    POST(new Request(`${BASE}/api/v1/tasks/${taskId}/flags`, { method: "POST", headers: headers(), body: JSON.stringify(body) }), { params: Promise.resolve({ id: taskId }) });
  const patch = (id: string, body: unknown) =>
    PATCH(new Request(`${BASE}/api/v1/flags/${id}`, { method: "PATCH", headers: headers(), body: JSON.stringify(body) }), { params: Promise.resolve({ id }) });
  const list = async (qs: string) => {
    const res = await listRoute(new Request(`${BASE}/api/v1/flags?${qs}`, { headers: headers() }), { params: Promise.resolve({}) });
    return { status: res.status, body: (await res.json()) as { items: FlagJson[]; next: string | null } };
  };

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("fr");
    await ingestPath(database.db, dir);
    a1 = (await findTaskIds(database.db, "fr", ["a1"])).get("a1") ?? 0;
    token = (await createToken(database.db, { name: "triage", role: "reviewer" }, CLI_ACTOR)).token;
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a manual flag by token: 201 with the flag; a note is required, unknown fields refused, unknown tasks 404", async () => {
    const res = await post(String(a1), { note: "  the test never reads the file  ", severity: "high", evidence: { file: "tests/test.sh", line: 2 } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ rule: "manual", source: "manual", message: "the test never reads the file", created_by: 'token "triage"', evidence: { file: "tests/test.sh", line: 2 } });
    expect((await post(String(a1), { note: "   " })).status).toBe(400);
    expect((await post(String(a1), { note: "x", evidence: { url: "javascript:alert(1)" } })).status).toBe(400);
    expect((await post(String(a1), { note: "x", rule: "oracle-fails" })).status).toBe(400);
    expect((await post("999999", { note: "x" })).status).toBe(404);
    expect((await post("abc", { note: "x" })).status).toBe(404);
  });

  test("resolving or dismissing needs a reason; reopening does not; unknown flags 404", async () => {
    const { body } = await list(`run=fr&task=${a1}`);
    const id = String(body.items[0]?.id);
    const noReason = await patch(id, { status: "dismissed" });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(await noReason.json())).toMatch(/needs a reason/);
    expect((await patch(id, { status: "resolved", reason: "" })).status).toBe(400);
    expect((await patch(id, { status: "gone", reason: "x" })).status).toBe(400);
    const ok = await patch(id, { status: "dismissed", reason: "a duplicate of the auto flag" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "dismissed", resolution: "a duplicate of the auto flag", resolved_by: 'token "triage"' });
    expect((await patch(id, { status: "open" })).status).toBe(200);
    expect((await patch("999999", { status: "dismissed", reason: "x" })).status).toBe(404);
  });

  test("the list's URL filters; a bad value is 400 naming the field", async () => {
    expect((await list("run=fr&status=open&rule=manual")).body.items.length).toBe(1);
    expect((await list("run=fr&status=dismissed")).body.items).toEqual([]);
    expect((await list("run=fr&round=1&operator=append-step&source=manual&severity=high")).body.items.length).toBe(1);
    const bad = await list("status=closed");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/"field":"status"/);
  });
});
