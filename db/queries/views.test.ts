// Saved views: create, list with the table's counts, rename, unshare, delete — by their creator
// or an admin only, audited; names unique per creator; the query string stored canonical.
import fs from "node:fs";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { createToken } from "@/db/queries/tokens";
import { createUser } from "@/db/queries/users";
import { auditLog } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { SavedViewJson } from "@/lib/api/types";
import { CLI_ACTOR, type Actor } from "@/lib/auth/actor";
import { listTasks } from "@/lib/data/read";
import { createView, deleteView, getViewQuery, listViews, updateView } from "@/lib/data/views";
import type { Role } from "@/lib/domain";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { parseTaskFilter } from "@/lib/tasks/filter";
import { GET, POST } from "@/app/api/v1/views/route";
import { DELETE, PATCH } from "@/app/api/v1/views/[id]/route";

describe.each(BACKENDS)("saved views on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let token = "";
  const people: Partial<Record<Role | "other", Actor>> = {};
  const person = (role: Role | "other"): Actor => {
    const a = people[role];
    if (!a) throw new Error(`no ${role}`);
    return a;
  };

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("vw");
    await ingestPath(database.db, dir);
    for (const [key, role] of [["viewer", "viewer"], ["reviewer", "reviewer"], ["admin", "admin"], ["other", "reviewer"]] as const) {
      const email = `${key}@views.example.org`;
      const u = await createUser(database.db, { email, role, password: "correct horse battery staple" }, CLI_ACTOR);
      people[key] = { kind: "user", id: u.id, label: email, role, userId: u.id };
    }
    token = (await createToken(database.db, { name: "views-script", role: "reviewer" }, CLI_ACTOR)).token;
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const must = (r: Awaited<ReturnType<typeof createView>>): SavedViewJson => {
    if (!r.ok) throw new Error(r.problem);
    return r.view;
  };

  test("each view is listed with the count the task table shows for its query; private views only to their creator", async () => {
    const round1 = must(await createView(person("reviewer"), { name: "Round 1", query: "run=vw&round=1&sort=-round" }));
    const rejected = must(await createView(person("reviewer"), { name: "rejected", query: "run=vw&status=rejected" }));
    const mine = must(await createView(person("other"), { name: "Mine only", query: "run=vw", shared: false }));
    for (const v of [round1, rejected, mine]) {
      const parsed = parseTaskFilter(new URLSearchParams(v.query));
      if (!parsed.ok) throw new Error("stored query does not parse");
      expect(v.count, v.name).toBe((await listTasks(person("viewer"), parsed.filter)).total);
    }
    expect([round1.count, rejected.count, mine.count]).toEqual([2, 1, 5]);
    const seen = await listViews(person("viewer"));
    expect(seen.map((v) => [v.name, v.count, v.mine])).toEqual([
      ["rejected", 1, false],
      ["Round 1", 2, false],
    ]);
    expect((await listViews(person("other"))).map((v) => [v.name, v.mine])).toEqual([
      ["Mine only", true],
      ["rejected", false],
      ["Round 1", false],
    ]);
    expect(round1).toMatchObject({ query: "round=1&run=vw&sort=-round", created_by: "reviewer@views.example.org", shared: true });
    // The short link: a shared view for anyone who reads, a private one for its creator only.
    expect(await getViewQuery(person("viewer"), round1.id)).toBe("round=1&run=vw&sort=-round");
    expect(await getViewQuery(person("viewer"), mine.id)).toBeNull();
    expect(await getViewQuery(person("other"), mine.id)).toBe("run=vw");
  });

  test("names are unique per creator; rename, re-filter and unshare by the creator or an admin only; audited", async () => {
    const v = must(await createView(person("reviewer"), { name: "Triage", query: "run=vw&round_min=1" }));
    expect(await createView(person("reviewer"), { name: "Triage", query: "run=vw" })).toEqual({ ok: false, problem: "name_taken" });
    expect((await createView(person("other"), { name: "Triage", query: "run=vw" })).ok).toBe(true);
    expect(await updateView(person("other"), v.id, { name: "Stolen" })).toEqual({ ok: false, problem: "forbidden" });
    expect(await deleteView(person("other"), v.id)).toEqual({ ok: false, problem: "forbidden" });
    await expect(updateView(person("viewer"), v.id, { name: "x" })).rejects.toMatchObject({ status: 403 });
    const renamed = await updateView(person("reviewer"), v.id, { name: "Triage later rounds", query: "round_min=2&run=vw" });
    expect(renamed).toMatchObject({ ok: true, view: { name: "Triage later rounds", count: 1 } });
    const unshared = await updateView(person("admin"), v.id, { shared: false });
    expect(unshared).toMatchObject({ ok: true, view: { shared: false, mine: false } });
    // No longer shared: others do not see it at all, not even to be refused.
    expect(await updateView(person("other"), v.id, { shared: true })).toEqual({ ok: false, problem: "not_found" });
    expect(await deleteView(person("reviewer"), v.id)).toEqual({ ok: true });
    expect(await deleteView(person("reviewer"), v.id)).toEqual({ ok: false, problem: "not_found" });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.targetId, String(v.id)));
    expect(audit.filter((a) => a.targetType === "view").map((a) => a.action)).toEqual(["view.create", "view.update", "view.update", "view.delete"]);
  });

  describe("the routes", () => {
    const call = (method: "GET" | "POST" | "PATCH" | "DELETE", body?: unknown, id?: number) => {
      const url = `http://localhost:3000/api/v1/views${id ? `/${id}` : ""}`;
      const req = new Request(url, {
        method,
        headers: { host: "localhost:3000", authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const ctx = { params: Promise.resolve({ id: String(id ?? "") }) };
      if (method === "GET") return GET(req, { params: Promise.resolve({}) });
      if (method === "POST") return POST(req, { params: Promise.resolve({}) });
      return method === "PATCH" ? PATCH(req, ctx) : DELETE(req, ctx);
    };

    test("201, 409 for a taken name, 400 for an unknown filter key, PATCH and DELETE by a token creator", async () => {
      const created = await call("POST", { name: "From a script", query: { run: "vw", status: "accepted", cursor: "abc" } });
      expect(created.status).toBe(201);
      const view = (await created.json()) as SavedViewJson;
      expect(view).toMatchObject({ query: "run=vw&status=accepted", count: 4, created_by: 'token "views-script"', mine: true });
      expect((await call("POST", { name: "From a script", query: "run=vw" })).status).toBe(409);
      expect((await call("POST", { name: "Typo", query: "run=vw&stauts=accepted" })).status).toBe(400);
      expect((await call("POST", { name: "", query: "run=vw" })).status).toBe(400);
      const list = (await (await call("GET")).json()) as { items: SavedViewJson[] };
      expect(list.items.find((v) => v.id === view.id)).toMatchObject({ count: 4 });
      const patched = await call("PATCH", { query: "?run=vw&round=0" }, view.id);
      expect(patched.status).toBe(200);
      expect((await patched.json()) as SavedViewJson).toMatchObject({ query: "round=0&run=vw", count: 2 });
      expect((await call("PATCH", {}, view.id)).status).toBe(400);
      expect((await call("PATCH", { name: "x" }, 999_999)).status).toBe(404);
      expect((await call("DELETE", undefined, view.id)).status).toBe(204);
      expect((await call("DELETE", undefined, view.id)).status).toBe(404);
      expect(await database.db.select().from(auditLog).where(like(auditLog.action, "view.%"))).not.toHaveLength(0);
    });
  });
});
