// The data layer for people, tokens and the audit log: admins only, checked here for every call.
import { getDb } from "@/db/client";
import * as audit from "@/db/queries/audit";
import * as tokens from "@/db/queries/tokens";
import * as people from "@/db/queries/users";
import { authorize, type Actor } from "@/lib/auth/actor";
import { generatePassword } from "@/lib/auth/password";
import type { Role } from "@/lib/domain";

async function adminDb(actor: Actor | null) {
  return { db: await getDb(), admin: authorize(actor, "admin") };
}

export async function listPeople(actor: Actor | null) {
  const { db } = await adminDb(actor);
  return people.listUsers(db);
}

/** Creates a person with a one-time password (generated unless given), returned once. */
export async function addPerson(actor: Actor | null, input: { email: string; name?: string; role: Role; password?: string }) {
  const { db, admin } = await adminDb(actor);
  const password = input.password ?? generatePassword();
  const user = await people.createUser(db, { ...input, password }, admin);
  return { ...user, password };
}

export async function changeRole(actor: Actor | null, userId: string, role: Role) {
  const { db, admin } = await adminDb(actor);
  await people.setUserRole(db, userId, role, admin);
}

export async function setActive(actor: Actor | null, userId: string, active: boolean) {
  const { db, admin } = await adminDb(actor);
  if (!active && userId === admin.userId) throw new people.UserChangeError("you cannot deactivate yourself");
  await people.setUserActive(db, userId, active, admin);
}

export async function resetPassword(actor: Actor | null, userId: string) {
  const { db, admin } = await adminDb(actor);
  const password = generatePassword();
  await people.resetPassword(db, userId, password, admin);
  return { password };
}

export async function listTokens(actor: Actor | null) {
  const { db } = await adminDb(actor);
  return tokens.listTokens(db);
}

export async function createToken(actor: Actor | null, input: { name: string; role: Role }) {
  const { db, admin } = await adminDb(actor);
  return tokens.createToken(db, input, admin);
}

export async function revokeToken(actor: Actor | null, id: number) {
  const { db, admin } = await adminDb(actor);
  await tokens.revokeToken(db, id, admin);
}

export async function listAudit(actor: Actor | null, q: audit.AuditQuery) {
  const { db } = await adminDb(actor);
  return audit.listAudit(db, q);
}

export async function listAuditActions(actor: Actor | null) {
  const { db } = await adminDb(actor);
  return audit.listAuditActions(db);
}
