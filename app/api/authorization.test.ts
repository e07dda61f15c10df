// Every route handler of /api/v1, called for real against a migrated database: anonymous, each
// role, a token, a spoofed middleware header, cross-site writes. A new route without a row here
// fails the "every route is covered" test.
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { useDatabase } from "@/db/client";
import { createBaseline } from "@/db/queries/baselines";
import { createManualFlag } from "@/db/queries/flags";
import { createQueue } from "@/db/queries/queues";
import { getRoundDetail } from "@/db/queries/stats";
import { createToken } from "@/db/queries/tokens";
import { createUser } from "@/db/queries/users";
import { createView } from "@/db/queries/views";
import { apiTokens, auditLog, sessions, tasks, users } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { CLI_ACTOR } from "@/lib/auth/actor";
import type { Role } from "@/lib/domain";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { packDirectory } from "@/lib/upload/pack";
import { ingestPath } from "@/lib/ingest";
import { callRoute as call, cookieOf, ORIGIN, PASSWORD, ROLE_ORDER, signIn as signInTo, type Case, type Handler, type Module } from "./route-testing";

describe.each(BACKENDS)("authorization of every API route on %s", (backend) => {
  let database: TestDatabase;
  const cookies = new Map<Role, string>();
  const ids: Record<string, string> = {};
  let token = "";
  let taskId = 0;
  let fixtureDir = "";
  let archive: Buffer = Buffer.alloc(0);

  const signIn = (email: string, password: string) => signInTo(database, email, password);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    fixtureDir = writeFixtureRun("fx");
    archive = gzipSync(await packDirectory(fixtureDir));
    await ingestPath(database.db, fixtureDir);
    // The same tasks as bare Harbor task directories: a run without lineage, to infer.
    await ingestPath(database.db, path.join(fixtureDir, "tasks"), { runName: "opaque" });
    const [task] = await database.db.execute(sql`select id from tasks order by id limit 1`).then((r) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { id: number }[]);
    taskId = Number(task?.id);
    for (const role of ROLE_ORDER) {
      const u = await createUser(database.db, { email: `${role}@example.org`, role, password: PASSWORD }, CLI_ACTOR);
      ids[role] = u.id;
      const res = await signIn(`${role}@example.org`, PASSWORD);
      expect(res.status).toBe(200);
      cookies.set(role, cookieOf(res));
    }
    const target = await createUser(database.db, { email: "target@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    ids.target = target.id;
    token = (await createToken(database.db, { name: "ci", role: "admin" }, CLI_ACTOR)).token;
    const victim = await createToken(database.db, { name: "victim", role: "viewer" }, CLI_ACTOR);
    ids.token = String(victim.id);
    const stats = await getRoundDetail(database.db, "fx");
    if (!stats) throw new Error("no statistics for fx");
    const flag = await createManualFlag(database.db, { taskId, message: "seeded", severity: "low", evidence: {} }, CLI_ACTOR);
    ids.flag = String(flag?.id);
    ids.queue = String((await createQueue(database.db, { name: "auth", filter: { run: "fx", limit: 50 } }, CLI_ACTOR)).id);
    for (const name of ["kept", "doomed"]) ids[`baseline-${name}`] = String((await createBaseline(database.db, { name, stats }, CLI_ACTOR))?.id);
    const reviewerActor = { kind: "user", id: ids.reviewer ?? "", label: "reviewer@example.org", role: "reviewer", userId: ids.reviewer ?? null } as const;
    const ownView = await createView(database.db, { name: "reviewer's", query: "run=fx", shared: true }, reviewerActor);
    const otherView = await createView(database.db, { name: "someone else's", query: "run=fx", shared: true }, CLI_ACTOR);
    ids["view-own"] = ownView.ok ? String(ownView.view.id) : "";
    ids["view-other"] = otherView.ok ? String(otherView.view.id) : "";
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(fixtureDir, { recursive: true, force: true });
  });

  const taskVersion = async () => (await database.db.select({ v: tasks.version }).from(tasks).where(eq(tasks.id, taskId)))[0]?.v ?? 0;

  const cases = (): Case[] => [
    { file: "runs", method: "GET", url: "/api/v1/runs", role: "viewer" },
    { file: "runs/[run]/rounds", method: "GET", url: "/api/v1/runs/fx/rounds", params: { run: "fx" }, role: "viewer" },
    { file: "runs/[run]/lineage", method: "POST", url: "/api/v1/runs/opaque/lineage", params: { run: "opaque" }, body: { dry_run: true }, role: "admin" },
    { file: "tasks", method: "GET", url: "/api/v1/tasks?run=fx", role: "viewer" },
    { file: "tasks/snippets", method: "GET", url: `/api/v1/tasks/snippets?q=mkdir&ids=${taskId}`, role: "viewer" },
    { file: "tasks/[id]", method: "GET", url: `/api/v1/tasks/${taskId}`, params: { id: String(taskId) }, role: "viewer" },
    {
      file: "tasks/[id]/files/[...path]",
      method: "GET",
      url: `/api/v1/tasks/${taskId}/files/instruction.md`,
      params: { id: String(taskId), path: ["instruction.md"] },
      role: "viewer",
    },
    { file: "tasks/[id]/lineage", method: "GET", url: `/api/v1/tasks/${taskId}/lineage?descendants=1`, params: { id: String(taskId) }, role: "viewer" },
    { file: "tasks/[id]/diff", method: "GET", url: `/api/v1/tasks/${taskId}/diff?against=${taskId}`, params: { id: String(taskId) }, role: "viewer" },
    { file: "tasks/[id]/reviews", method: "GET", url: `/api/v1/tasks/${taskId}/reviews`, params: { id: String(taskId) }, role: "viewer" },
    {
      file: "tasks/[id]/reviews",
      method: "POST",
      url: `/api/v1/tasks/${taskId}/reviews`,
      params: { id: String(taskId) },
      body: async () => ({ decision: "skip", base_version: await taskVersion() }),
      role: "reviewer",
    },
    {
      file: "tasks/bulk",
      method: "POST",
      url: "/api/v1/tasks/bulk",
      body: () => ({ filter: "run=fx&round=0", decision: "skip", expected_count: 2, idempotency_key: `auth-${Math.random()}` }),
      role: "reviewer",
    },
    { file: "views", method: "GET", url: "/api/v1/views", role: "viewer" },
    { file: "views", method: "POST", url: "/api/v1/views", body: () => ({ name: `v-${Math.random()}`, query: "run=fx&round=1" }), role: "reviewer" },
    // The reviewer's own view: the reviewer and an admin may change it; someone else's only an admin deletes.
    { file: "views/[id]", method: "PATCH", url: `/api/v1/views/${ids["view-own"]}`, params: { id: ids["view-own"] }, body: () => ({ name: `renamed-${Math.random()}` }), role: "reviewer" },
    { file: "views/[id]", method: "DELETE", url: `/api/v1/views/${ids["view-other"]}`, params: { id: ids["view-other"] }, role: "admin" },
    { file: "tasks/[id]/trials", method: "GET", url: `/api/v1/tasks/${taskId}/trials`, params: { id: String(taskId) }, role: "viewer" },
    { file: "trials/[id]", method: "GET", url: "/api/v1/trials/1", params: { id: "1" }, role: "viewer" },
    {
      file: "trials/[id]/logs/[...name]",
      method: "GET",
      url: "/api/v1/trials/1/logs/verifier/test-stdout.txt?from=0&to=10",
      params: { id: "1", name: ["verifier", "test-stdout.txt"] },
      role: "viewer",
    },
    { file: "flags", method: "GET", url: "/api/v1/flags?run=fx&status=open", role: "viewer" },
    { file: "flags/counts", method: "GET", url: "/api/v1/flags/counts?run=fx", role: "viewer" },
    { file: "flags/[id]", method: "GET", url: `/api/v1/flags/${ids.flag}`, params: { id: ids.flag }, role: "viewer" },
    {
      file: "flags/[id]",
      method: "PATCH",
      url: `/api/v1/flags/${ids.flag}`,
      params: { id: ids.flag },
      body: () => ({ status: Math.random() < 0.5 ? "open" : "dismissed", reason: "not a problem" }),
      role: "reviewer",
    },
    { file: "tasks/[id]/flags", method: "GET", url: `/api/v1/tasks/${taskId}/flags`, params: { id: String(taskId) }, role: "viewer" },
    {
      file: "tasks/[id]/flags",
      method: "POST",
      url: `/api/v1/tasks/${taskId}/flags`,
      params: { id: String(taskId) },
      body: { note: "the verifier never checks the report", severity: "high" },
      role: "reviewer",
    },
    { file: "facets", method: "GET", url: "/api/v1/facets?run=fx", role: "viewer" },
    { file: "baselines", method: "GET", url: "/api/v1/baselines", role: "viewer" },
    { file: "baselines", method: "POST", url: "/api/v1/baselines", body: () => ({ name: `b-${Math.random()}`, run: "fx" }), role: "reviewer" },
    { file: "baselines/[id]", method: "GET", url: `/api/v1/baselines/${ids["baseline-kept"]}`, params: { id: ids["baseline-kept"] }, role: "viewer" },
    { file: "baselines/[id]", method: "DELETE", url: `/api/v1/baselines/${ids["baseline-doomed"]}`, params: { id: ids["baseline-doomed"] }, role: "admin" },
    { file: "me", method: "GET", url: "/api/v1/me", role: "viewer" },
    { file: "users", method: "GET", url: "/api/v1/users", role: "admin" },
    { file: "users", method: "POST", url: "/api/v1/users", body: { email: `new-${Math.random()}@example.org`, role: "viewer" }, role: "admin" },
    { file: "users/[id]", method: "PATCH", url: `/api/v1/users/${ids.target}`, params: { id: ids.target }, body: { role: "reviewer" }, role: "admin" },
    { file: "users/[id]/password", method: "POST", url: `/api/v1/users/${ids.target}/password`, params: { id: ids.target }, role: "admin" },
    { file: "tokens", method: "GET", url: "/api/v1/tokens", role: "admin" },
    { file: "tokens", method: "POST", url: "/api/v1/tokens", body: { name: "made", role: "viewer" }, role: "admin" },
    { file: "tokens/[id]", method: "DELETE", url: `/api/v1/tokens/${ids.token}`, params: { id: ids.token }, role: "admin" },
    { file: "audit", method: "GET", url: "/api/v1/audit", role: "admin" },
    { file: "export", method: "GET", url: "/api/v1/export?format=jsonl", role: "admin" },
    { file: "ingest", method: "POST", url: "/api/v1/ingest?run=uploaded", raw: { type: "application/gzip", bytes: archive }, role: "admin" },
    { file: "imports/[id]", method: "GET", url: "/api/v1/imports/1", params: { id: "1" }, role: "admin" },
    { file: "queues", method: "GET", url: "/api/v1/queues", role: "viewer" },
    { file: "queues", method: "POST", url: "/api/v1/queues", body: { name: "made", filter: "run=fx&round=1" }, role: "reviewer" },
    { file: "queues/[id]", method: "GET", url: `/api/v1/queues/${ids.queue}`, params: { id: ids.queue }, role: "viewer" },
    { file: "queues/[id]", method: "PATCH", url: `/api/v1/queues/${ids.queue}`, params: { id: ids.queue }, body: { archived: false }, role: "reviewer" },
    { file: "queues/[id]/next", method: "POST", url: `/api/v1/queues/${ids.queue}/next?prefetch=1`, params: { id: ids.queue }, role: "reviewer" },
    { file: "queues/[id]/items", method: "POST", url: `/api/v1/queues/${ids.queue}/items`, params: { id: ids.queue }, body: { task_ids: [taskId] }, role: "reviewer" },
    {
      file: "queues/[id]/decisions",
      method: "POST",
      url: `/api/v1/queues/${ids.queue}/decisions`,
      params: { id: ids.queue },
      body: async () => ({ task_id: taskId, decision: "skip", base_version: await taskVersion() }),
      role: "reviewer",
    },
    { file: "queues/[id]/skip", method: "POST", url: `/api/v1/queues/${ids.queue}/skip`, params: { id: ids.queue }, body: { task_id: taskId }, role: "reviewer" },
    { file: "queues/[id]/reservation", method: "DELETE", url: `/api/v1/queues/${ids.queue}/reservation?skips=1`, params: { id: ids.queue }, role: "reviewer" },
    {
      file: "queues/[id]/tasks/[taskId]",
      method: "GET",
      url: `/api/v1/queues/${ids.queue}/tasks/${taskId}`,
      params: { id: ids.queue, taskId: String(taskId) },
      role: "viewer",
    },
  ];

  test("every exported handler under app/api/v1 has a case", () => {
    const root = path.resolve("app/api/v1");
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name === "route.ts") {
          const rel = path.relative(root, dir).split(path.sep).join("/");
          for (const m of fs.readFileSync(p, "utf8").matchAll(/export (?:const|async function) (GET|POST|PATCH|PUT|DELETE)\b/g)) found.push(`${m[1]} ${rel}`);
        }
      }
    };
    walk(root);
    const covered = new Set(cases().map((c) => `${c.method} ${c.file}`));
    expect(found.filter((f) => !covered.has(f))).toEqual([]);
  });

  test("anonymous requests get 401, also with a spoofed middleware header", async () => {
    for (const c of cases()) {
      const variants: Record<string, string>[] = [{}, { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" }, { origin: ORIGIN }];
      for (const headers of variants) {
        const res = await call(c, headers);
        expect(res.status, `${c.method} ${c.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
      }
    }
  });

  test("each role gets exactly what it may: below the least role 403, at or above it success", async () => {
    for (const c of cases()) {
      for (const role of ROLE_ORDER) {
        const res = await call(c, { cookie: cookies.get(role) ?? "", origin: ORIGIN });
        const allowed = ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(c.role);
        if (allowed) expect(res.status, `${role} ${c.method} ${c.url}: ${await res.clone().text()}`).toBeLessThan(300);
        else expect(res.status, `${role} ${c.method} ${c.url}`).toBe(403);
      }
    }
  });

  test("an invalid or revoked token is 401 and is not rescued by a cookie", async () => {
    const runs = cases()[0] as Case;
    expect((await call(runs, { authorization: "Bearer rstc_nope" })).status).toBe(401);
    expect((await call(runs, { authorization: "Bearer rstc_nope", cookie: cookies.get("admin") ?? "" })).status).toBe(401);
    expect((await call(runs, { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  test("a token revoked through the API is refused on its very next request", async () => {
    const runs = cases()[0] as Case;
    const admin = { authorization: `Bearer ${token}` };
    const made = await call({ file: "tokens", method: "POST", url: "/api/v1/tokens", body: { name: "short-lived", role: "viewer" }, role: "admin" }, admin);
    const { id, token: secret } = (await made.json()) as { id: number; token: string };
    expect((await call(runs, { authorization: `Bearer ${secret}` })).status).toBe(200);
    expect((await call(runs, { authorization: `Bearer ${secret}` })).status).toBe(200);
    const revoke: Case = { file: "tokens/[id]", method: "DELETE", url: `/api/v1/tokens/${id}`, params: { id: String(id) }, role: "admin" };
    expect((await call(revoke, admin)).status).toBeLessThan(300);
    expect((await call(runs, { authorization: `Bearer ${secret}` })).status).toBe(401);
  });

  test("a JSON write's body is read once, not cloned", async () => {
    const clone = vi.spyOn(Request.prototype, "clone");
    try {
      const make: Case = { file: "tokens", method: "POST", url: "/api/v1/tokens", body: { name: "read-once", role: "viewer" }, role: "admin" };
      expect((await call(make, { authorization: `Bearer ${token}` })).status).toBe(201);
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });

  test("cross-site writes with a session cookie change nothing; the same write with a token works", async () => {
    const before = await database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(apiTokens);
    const make = (name: string): Case => ({ file: "tokens", method: "POST", url: "/api/v1/tokens", body: { name, role: "admin" }, role: "admin" });
    const admin = cookies.get("admin") ?? "";
    expect((await call(make("evil-origin"), { cookie: admin, origin: "https://evil.example" })).status).toBe(403);
    expect((await call(make("no-origin"), { cookie: admin })).status).toBe(403);
    expect((await call(make("null-origin"), { cookie: admin, origin: "null" })).status).toBe(403);
    expect((await call(make("cross-site"), { cookie: admin, origin: ORIGIN, "sec-fetch-site": "cross-site" })).status).toBe(403);
    // A form-encodable body (what a cross-site form can send) is refused even from our origin.
    const mod = (await import("@/app/api/v1/tokens/route")) as Module;
    const plain = await (mod.POST as Handler)(
      new Request(`${ORIGIN}/api/v1/tokens`, {
        method: "POST",
        headers: { host: "localhost:3000", origin: ORIGIN, cookie: admin, "content-type": "text/plain" },
        body: JSON.stringify({ name: "plain", role: "admin" }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(plain.status).toBe(415);
    const after = await database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(apiTokens);
    expect(after[0]?.n).toBe(before[0]?.n);

    const viaToken = await call(make("from-script"), { authorization: `Bearer ${token}` });
    expect(viaToken.status).toBe(201);
    const created = (await viaToken.json()) as { token: string };
    expect(created.token).toMatch(/^rstc_/);
    const stored = await database.db.select().from(apiTokens).where(eq(apiTokens.name, "from-script"));
    expect(stored[0]?.tokenHash).not.toContain(created.token);
  });

  test("an export another site starts with an admin's cookie is refused; from the dashboard, a bookmark or a token it works", async () => {
    const exp: Case = { file: "export", method: "GET", url: "/api/v1/export?format=jsonl", role: "admin" };
    const admin = cookies.get("admin") ?? "";
    for (const site of ["cross-site", "same-site"]) {
      const res = await call(exp, { cookie: admin, "sec-fetch-site": site });
      expect(res.status, site).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("cross_origin");
    }
    const allowed: Record<string, string>[] = [{ cookie: admin, "sec-fetch-site": "same-origin" }, { cookie: admin, "sec-fetch-site": "none" }, { authorization: `Bearer ${token}`, "sec-fetch-site": "cross-site" }];
    for (const headers of allowed) {
      const res = await call(exp, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      await res.text();
    }
  });

  test("a deactivated person's cookie stops working at once", async () => {
    const u = await createUser(database.db, { email: "leaver@example.org", role: "reviewer", password: PASSWORD }, CLI_ACTOR);
    const cookie = cookieOf(await signIn("leaver@example.org", PASSWORD));
    const me = cases().find((c) => c.file === "me") as Case;
    expect((await call(me, { cookie })).status).toBe(200);
    const patch: Case = { file: "users/[id]", method: "PATCH", url: `/api/v1/users/${u.id}`, params: { id: u.id }, body: { active: false }, role: "admin" };
    expect((await call(patch, { cookie: cookies.get("admin") ?? "", origin: ORIGIN })).status).toBe(200);
    expect((await call(me, { cookie })).status).toBe(401);
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, u.id))).toEqual([]);
    expect((await signIn("leaver@example.org", PASSWORD)).status).toBe(401);
  });

  test("the last admin cannot be demoted or deactivated (409), and nothing is audited for it", async () => {
    // Demote the other admins made by earlier cases, if any, so `admin` is the only one.
    await database.db.update(users).set({ role: "viewer" }).where(sql`${users.role} = 'admin' and ${users.id} <> ${ids.admin}`);
    const before = await database.db.select().from(auditLog).where(eq(auditLog.targetId, ids.admin ?? ""));
    for (const body of [{ role: "viewer" }, { active: false }]) {
      const c: Case = { file: "users/[id]", method: "PATCH", url: `/api/v1/users/${ids.admin}`, params: { id: ids.admin }, body, role: "admin" };
      const res = await call(c, { cookie: cookies.get("admin") ?? "", origin: ORIGIN });
      expect(res.status).toBe(409);
    }
    const after = await database.db.select().from(auditLog).where(eq(auditLog.targetId, ids.admin ?? ""));
    expect(after.length).toBe(before.length);
  });
});
