// Sign-in, sessions and the audit trail on a real migrated database (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), through Better Auth's HTTP handler as a browser would reach it.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { createToken, findActiveToken, revokeToken, VERIFIED_TOKEN_MS } from "@/db/queries/tokens";
import { createUser, setUserRole } from "@/db/queries/users";
import { apiTokens, auditLog, sessions, users } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { env } from "@/lib/env";
import { AuthError, CLI_ACTOR } from "./actor";
import { ensureFirstAdmin } from "./first-admin";
import { isSameOrigin } from "./origin";
import { authenticate } from "./request";
import { handleAuthRequest, SIGN_IN_FAILED } from "./server";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "a long enough password";

describe.each(BACKENDS)("sign-in and sessions on %s", (backend) => {
  let database: TestDatabase;
  let address = 0;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.execute(sql`TRUNCATE users, audit_log, api_tokens RESTART IDENTITY CASCADE`);
    address++;
  });

  async function post(pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return handleAuthRequest(
      database,
      new Request(`${ORIGIN}/api/auth${pathname}`, {
        method: "POST",
        headers: { host: "localhost:3000", "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": `10.1.0.${address}`, ...headers },
        body: JSON.stringify(body),
      }),
    );
  }

  const signIn = (email: string, password: string, headers?: Record<string, string>) => post("/sign-in/email", { email, password }, headers);

  function cookieOf(res: Response): string {
    const c = res.headers.getSetCookie().find((v) => v.includes("session_token="));
    if (!c) throw new Error("no session cookie");
    return c.split(";")[0] ?? "";
  }

  const actions = async () => (await database.db.select({ action: auditLog.action }).from(auditLog).orderBy(auditLog.id)).map((r) => r.action);

  test("a right password signs in with an HttpOnly SameSite=Lax cookie and is audited", async () => {
    await createUser(database.db, { email: "Ada@Example.org", role: "reviewer", password: PASSWORD }, CLI_ACTOR);
    const res = await signIn("ada@example.org", PASSWORD);
    expect(res.status).toBe(200);
    const set = res.headers.getSetCookie().find((v) => v.includes("session_token=")) ?? "";
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).toMatch(/^rst\./);
    const who = await authenticate(database, new Headers({ cookie: cookieOf(res) }));
    expect(who.actor).toMatchObject({ label: "ada@example.org", role: "reviewer", kind: "user" });
    expect(await actions()).toEqual(["user.create", "sign-in"]);
  });

  test("every failure gets one generic message: wrong password, unknown email, deactivated", async () => {
    await createUser(database.db, { email: "bob@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    await createUser(database.db, { email: "gone@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    await database.db.update(users).set({ active: false }).where(eq(users.email, "gone@example.org"));
    const bodies: unknown[] = [];
    for (const [email, password] of [
      ["bob@example.org", "wrong password!!"],
      ["nobody@example.org", PASSWORD],
      ["gone@example.org", PASSWORD],
    ] as const) {
      const res = await signIn(email, password);
      expect(res.status).toBe(401);
      expect(res.headers.getSetCookie().filter((c) => c.includes("session_token=") && !/Max-Age=0/i.test(c))).toEqual([]);
      bodies.push(await res.json());
    }
    expect(bodies.every((b) => JSON.stringify(b) === JSON.stringify(bodies[0]))).toBe(true);
    expect(bodies[0]).toMatchObject({ message: SIGN_IN_FAILED });
    expect((await actions()).filter((a) => a === "sign-in.failed")).toHaveLength(3);
  });

  test("after too many failures even the right password is refused, with the same message", async () => {
    await createUser(database.db, { email: "carol@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    for (let i = 0; i < env.signInFailureLimit; i++) expect((await signIn("carol@example.org", `guess number ${i}!`)).status).toBe(401);
    const locked = await signIn("carol@example.org", PASSWORD);
    expect(locked.status).toBe(401);
    expect(await locked.json()).toMatchObject({ message: SIGN_IN_FAILED });
    expect(await actions()).toContain("sign-in.refused");
    // Other people are not locked out by Carol's attacker.
    await createUser(database.db, { email: "dan@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    expect((await signIn("dan@example.org", PASSWORD, { "x-forwarded-for": "10.9.9.9" })).status).toBe(200);
  });

  test("a sign-in from another origin is refused", async () => {
    await createUser(database.db, { email: "erin@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    const res = await signIn("erin@example.org", PASSWORD, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await database.db.select().from(sessions)).toEqual([]);
  });

  test("changing the password ends the other sessions, even when the client asks otherwise", async () => {
    await createUser(database.db, { email: "fay@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    const laptop = cookieOf(await signIn("fay@example.org", PASSWORD));
    const phone = cookieOf(await signIn("fay@example.org", PASSWORD));
    const res = await post("/change-password", { currentPassword: PASSWORD, newPassword: "another long password", revokeOtherSessions: false }, { cookie: laptop });
    expect(res.status).toBe(200);
    const still = res.headers.getSetCookie().find((c) => c.includes("session_token="));
    expect((await authenticate(database, new Headers({ cookie: phone }))).actor).toBeNull();
    // The session that changed it continues (Better Auth issues it a fresh cookie).
    expect((await authenticate(database, new Headers({ cookie: still ? (still.split(";")[0] ?? "") : laptop }))).actor).not.toBeNull();
    expect((await signIn("fay@example.org", PASSWORD)).status).toBe(401);
    expect((await signIn("fay@example.org", "another long password")).status).toBe(200);
    expect(await actions()).toContain("password.change");
  });

  test("sign-out deletes the session; an expired session is no session", async () => {
    await createUser(database.db, { email: "gus@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR);
    const cookie = cookieOf(await signIn("gus@example.org", PASSWORD));
    expect((await post("/sign-out", {}, { cookie })).status).toBe(200);
    expect((await authenticate(database, new Headers({ cookie }))).actor).toBeNull();

    const again = cookieOf(await signIn("gus@example.org", PASSWORD));
    expect((await authenticate(database, new Headers({ cookie: again }))).actor).not.toBeNull();
    await database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await authenticate(database, new Headers({ cookie: again }))).actor).toBeNull();
  });

  test("a role change applies to the next request of an existing session", async () => {
    const u = await createUser(database.db, { email: "hal@example.org", role: "admin", password: PASSWORD }, CLI_ACTOR);
    await createUser(database.db, { email: "ivy@example.org", role: "admin", password: PASSWORD }, CLI_ACTOR);
    const cookie = cookieOf(await signIn("hal@example.org", PASSWORD));
    await setUserRole(database.db, u.id, "viewer", CLI_ACTOR);
    expect((await authenticate(database, new Headers({ cookie }))).actor?.role).toBe("viewer");
    const [row] = await database.db.select().from(auditLog).where(eq(auditLog.action, "user.role"));
    expect(row?.details).toMatchObject({ from: "admin", to: "viewer" });
  });

  test("tokens: stored hashed, revocable, audited", async () => {
    const { token, id } = await createToken(database.db, { name: "nightly", role: "admin" }, CLI_ACTOR);
    expect(await findActiveToken(database.db, token)).toMatchObject({ id, role: "admin" });
    const raw = await database.db.execute(sql`select * from api_tokens`);
    expect(JSON.stringify(raw)).not.toContain(token);
    await revokeToken(database.db, id, CLI_ACTOR);
    await revokeToken(database.db, id, CLI_ACTOR); // twice: no second audit row
    expect(await findActiveToken(database.db, token)).toBeNull();
    expect(await actions()).toEqual(["token.create", "token.revoke"]);
  });

  const bearer = (token: string) => authenticate(database, new Headers({ authorization: `Bearer ${token}` }));
  const refused = (token: string) => expect(bearer(token)).rejects.toSatisfy((e) => e instanceof AuthError && e.status === 401);
  afterEach(() => {
    vi.useRealTimers();
  });

  test("a token this process has verified is refused at once when it is revoked", async () => {
    const { token, id } = await createToken(database.db, { name: "ci", role: "reviewer" }, CLI_ACTOR);
    expect((await bearer(token)).actor).toMatchObject({ id: `token:${id}`, role: "reviewer" });
    expect((await bearer(token)).actor).toMatchObject({ id: `token:${id}` }); // now remembered
    await revokeToken(database.db, id, CLI_ACTOR);
    await refused(token);
    await refused(`${token}x`);
  });

  test("a token revoked by another process is believed here for at most VERIFIED_TOKEN_MS", async () => {
    const { token, id } = await createToken(database.db, { name: "elsewhere", role: "viewer" }, CLI_ACTOR);
    // The clock stands still until moved (a loaded machine must not decide the test).
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    await bearer(token);
    // What `rst-curator token revoke` in another process does: this process is not told.
    await database.db.update(apiTokens).set({ revokedAt: sql`now()` }).where(eq(apiTokens.id, id));
    vi.setSystemTime(start + VERIFIED_TOKEN_MS - 1);
    expect((await bearer(token)).actor).toMatchObject({ id: `token:${id}` });
    vi.setSystemTime(start + VERIFIED_TOKEN_MS + 1);
    await refused(token);
  });

  test("a token's use is noted by its lookup, at most once a minute", async () => {
    const { token, id } = await createToken(database.db, { name: "noted", role: "viewer" }, CLI_ACTOR);
    const lastUsed = async () => (await database.db.select({ at: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.id, id)))[0]?.at ?? null;
    expect(await lastUsed()).toBeNull();
    await findActiveToken(database.db, token);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await findActiveToken(database.db, token);
    expect(await lastUsed()).toEqual(first);
    await database.db.update(apiTokens).set({ lastUsedAt: sql`now() - interval '2 minutes'` }).where(eq(apiTokens.id, id));
    const stale = await lastUsed();
    await findActiveToken(database.db, token);
    expect(new Date((await lastUsed()) ?? 0).getTime()).toBeGreaterThan(new Date(stale ?? 0).getTime());
    // A revoked token is not found, and its last use stays what it was.
    await revokeToken(database.db, id, CLI_ACTOR);
    await database.db.update(apiTokens).set({ lastUsedAt: sql`now() - interval '2 minutes'` }).where(eq(apiTokens.id, id));
    const before = await lastUsed();
    expect(await findActiveToken(database.db, token)).toBeNull();
    expect(await lastUsed()).toEqual(before);
  });

  test("a person deactivated behind the app's back is refused on the session's next request", async () => {
    await createUser(database.db, { email: "jo@example.org", role: "reviewer", password: PASSWORD }, CLI_ACTOR);
    const cookie = cookieOf(await signIn("jo@example.org", PASSWORD));
    expect((await authenticate(database, new Headers({ cookie }))).actor).toMatchObject({ role: "reviewer" });
    await database.db.update(users).set({ active: false }).where(eq(users.email, "jo@example.org"));
    expect((await authenticate(database, new Headers({ cookie }))).actor).toBeNull();
  });

  test("a change that rolls back leaves no audit row", async () => {
    // Fail the transaction after the audit row is written: a trigger refuses this one email.
    await database.db.execute(sql`
      create or replace function refuse_boom() returns trigger language plpgsql as $$
      begin if new.details->>'email' = 'boom@example.org' then raise exception 'refused by test'; end if; return new; end $$`);
    await database.db.execute(sql`create trigger refuse_boom after insert on audit_log for each row execute function refuse_boom()`);
    try {
      await expect(createUser(database.db, { email: "boom@example.org", role: "viewer", password: PASSWORD }, CLI_ACTOR)).rejects.toThrow();
      expect(await database.db.select().from(users).where(eq(users.email, "boom@example.org"))).toEqual([]);
      expect(await database.db.select().from(auditLog).where(and(eq(auditLog.action, "user.create")))).toEqual([]);
    } finally {
      await database.db.execute(sql`drop trigger refuse_boom on audit_log`);
    }
  });

  test("the first start creates one admin with a password of its own", async () => {
    const first = await ensureFirstAdmin(database.db, { email: "root@example.org" });
    expect(first?.generatedPassword).toMatch(/^[A-Za-z2-9]{20}$/);
    expect(await ensureFirstAdmin(database.db, { email: "root@example.org" })).toBeNull();
    expect((await signIn("root@example.org", first?.generatedPassword ?? "")).status).toBe(200);
    await database.db.execute(sql`TRUNCATE users RESTART IDENTITY CASCADE`);
    const second = await ensureFirstAdmin(database.db, { email: "root@example.org" });
    expect(second?.generatedPassword).not.toBe(first?.generatedPassword);
    const given = await ensureFirstAdmin(database.db, {});
    expect(given).toBeNull();
  });
});

describe("origin check", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  test("same host passes; another, missing or null origin fails", () => {
    expect(isSameOrigin(h({ host: "localhost:3000", origin: "http://localhost:3000" }))).toBe(true);
    expect(isSameOrigin(h({ host: "localhost:3000", origin: "http://localhost:3001" }))).toBe(false);
    expect(isSameOrigin(h({ host: "localhost:3000", origin: "https://evil.example" }))).toBe(false);
    expect(isSameOrigin(h({ host: "localhost:3000" }))).toBe(false);
    expect(isSameOrigin(h({ host: "localhost:3000", origin: "null" }))).toBe(false);
    expect(isSameOrigin(h({ host: "localhost:3000", origin: "http://localhost:3000", "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOrigin(h({ host: "localhost:3000", origin: "javascript://localhost:3000" }))).toBe(false);
  });
});
