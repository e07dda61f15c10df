// People: creation with a password, roles, deactivation — each change audited in its transaction.
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, count, eq, gt, ne, sql } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import type { Role } from "@/lib/domain";
import { execRows, type Db } from "../client";
import { accounts, auditLog, sessions, users } from "../schema";
import { recordAudit } from "./audit";

export interface UserRow {
  id: string;
  name: string;
  email: string;
  role: Role;
  active: boolean;
  createdAt: Date;
  lastSignInAt: string | null;
  sessions: number;
}

/** A change the rules refuse (e.g. demoting the last admin); the message is for the person. */
export class UserChangeError extends Error {
  constructor(
    message: string,
    readonly status: 404 | 409 = 409,
  ) {
    super(message);
    this.name = "UserChangeError";
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, normalizeEmail(email)));
  return row ?? null;
}

export async function listUsers(db: Db): Promise<UserRow[]> {
  const rows = await execRows<{
    id: string;
    name: string;
    email: string;
    role: Role;
    active: boolean;
    created_at: string | Date;
    last_sign_in_at: string | Date | null;
    sessions: number | string;
  }>(
    db,
    sql`select u.id, u.name, u.email, u.role, u.active, u.created_at,
          (select max(a.at) from ${auditLog} a where a.action = 'sign-in' and a.actor_id = u.id) as last_sign_in_at,
          (select count(*) from ${sessions} s where s.user_id = u.id and s.expires_at > now()) as sessions
        from ${users} u order by u.active desc, u.email asc`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role,
    active: r.active,
    createdAt: new Date(r.created_at),
    lastSignInAt: r.last_sign_in_at === null ? null : new Date(r.last_sign_in_at).toISOString(),
    sessions: Number(r.sessions),
  }));
}

export interface NewUser {
  email: string;
  name?: string;
  role: Role;
  password: string;
}

/** Creates a person who signs in with `password`; refuses an email that is taken. */
export async function createUser(db: Db, input: NewUser, actor: Actor): Promise<{ id: string; email: string }> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (taken) throw new UserChangeError(`${email} already has an account`);
    const id = randomUUID();
    const now = new Date();
    await tx.insert(users).values({ id, email, name: input.name?.trim() || email.split("@")[0] || email, role: input.role, emailVerified: true, createdAt: now, updatedAt: now });
    await tx.insert(accounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash, createdAt: now, updatedAt: now });
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: "user.create", targetType: "user", targetId: id, details: { email, role: input.role } });
    return { id, email };
  });
}

async function lockedUser(tx: Db, id: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for("update");
  if (!row) throw new UserChangeError("no such person", 404);
  return row;
}

/** Someone must always be able to manage people: the last active admin keeps the role. */
async function assertAnotherAdmin(tx: Db, exceptId: string): Promise<void> {
  // Lock every active admin row, so two demotions at once cannot both pass this check.
  const others = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.active, true), ne(users.id, exceptId)))
    .for("update");
  if (others.length === 0) throw new UserChangeError("this is the last active admin: make someone else an admin first");
}

export async function setUserRole(db: Db, id: string, role: Role, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await lockedUser(tx, id);
    if (user.role === role) return;
    if (user.role === "admin") await assertAnotherAdmin(tx, id);
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: "user.role", targetType: "user", targetId: id, details: { email: user.email, from: user.role, to: role } });
  });
}

/** Deactivating ends every session of that person at once; their history stays. */
export async function setUserActive(db: Db, id: string, active: boolean, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await lockedUser(tx, id);
    if (user.active === active) return;
    if (!active && user.role === "admin") await assertAnotherAdmin(tx, id);
    await tx.update(users).set({ active, updatedAt: new Date() }).where(eq(users.id, id));
    if (!active) await tx.delete(sessions).where(eq(sessions.userId, id));
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: active ? "user.activate" : "user.deactivate", targetType: "user", targetId: id, details: { email: user.email } });
  });
}

/** An admin sets a new one-time password; every session of that person ends. */
export async function resetPassword(db: Db, id: string, password: string, actor: Actor): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const user = await lockedUser(tx, id);
    const updated = await tx
      .update(accounts)
      .set({ password: passwordHash, updatedAt: new Date() })
      .where(and(eq(accounts.userId, id), eq(accounts.providerId, "credential")))
      .returning({ id: accounts.id });
    if (updated.length === 0) throw new UserChangeError("this person has no password sign-in", 409);
    await tx.delete(sessions).where(eq(sessions.userId, id));
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: "user.password-reset", targetType: "user", targetId: id, details: { email: user.email } });
  });
}

/** Failed sign-ins in the last 15 minutes, by email and by client address (from the audit log). */
export async function countRecentSignInFailures(db: Db, email: string, address: string): Promise<{ byEmail: number; byAddress: number }> {
  const recent = and(eq(auditLog.action, "sign-in.failed"), gt(auditLog.at, sql`now() - interval '15 minutes'`));
  const [row] = await db
    .select({
      byEmail: sql<number>`count(*) filter (where ${auditLog.details}->>'email' = ${email})`.mapWith(Number),
      byAddress: sql<number>`count(*) filter (where ${auditLog.details}->>'address' = ${address})`.mapWith(Number),
    })
    .from(auditLog)
    .where(recent);
  return { byEmail: row?.byEmail ?? 0, byAddress: row?.byAddress ?? 0 };
}

export async function activeAdminCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(and(eq(users.role, "admin"), eq(users.active, true)));
  return row?.n ?? 0;
}

/** What authorization needs of a person, read fresh on every request. */
export async function getUserAccess(db: Db, id: string): Promise<{ id: string; email: string; role: Role; active: boolean } | null> {
  const [row] = await db.select({ id: users.id, email: users.email, role: users.role, active: users.active }).from(users).where(eq(users.id, id));
  return row ?? null;
}
