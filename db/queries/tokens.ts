// API tokens: the secret is shown once and only its SHA-256 is stored. Tokens are long random
// strings, so a fast hash is enough: there is nothing to guess from it.
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import type { Role } from "@/lib/domain";
import type { Db } from "../client";
import { apiTokens, users } from "../schema";
import { recordAudit } from "./audit";
import { UserChangeError } from "./users";

export const TOKEN_PREFIX = "rstc_";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface TokenRow {
  id: number;
  name: string;
  role: Role;
  prefix: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export async function createToken(db: Db, input: { name: string; role: Role }, actor: Actor): Promise<{ token: string; id: number }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({ name: input.name.trim(), role: input.role, tokenHash: hashToken(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6), createdBy: actor.userId })
      .returning({ id: apiTokens.id });
    if (!row) throw new Error("token insert returned nothing");
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: "token.create", targetType: "token", targetId: String(row.id), details: { name: input.name.trim(), role: input.role } });
    return { token, id: row.id };
  });
}

export async function revokeToken(db: Db, id: number, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: sql`now()`, revokedBy: actor.userId })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning({ name: apiTokens.name });
    if (!row) {
      const [exists] = await tx.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.id, id));
      if (!exists) throw new UserChangeError("no such token", 404);
      return; // already revoked: nothing changes, nothing to audit
    }
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: "token.revoke", targetType: "token", targetId: String(id), details: { name: row.name } });
  });
}

export async function listTokens(db: Db): Promise<TokenRow[]> {
  const rows = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      role: apiTokens.role,
      prefix: apiTokens.prefix,
      createdBy: users.email,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .orderBy(sql`${apiTokens.revokedAt} is not null`, desc(apiTokens.createdAt));
  return rows;
}

/** The live token with this secret, or null; notes its use at most once a minute. */
export async function findActiveToken(db: Db, token: string): Promise<{ id: number; name: string; role: Role } | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const hash = hashToken(token);
  const [row] = await db
    .select({ id: apiTokens.id, name: apiTokens.name, role: apiTokens.role })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hash), isNull(apiTokens.revokedAt)));
  if (!row) return null;
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiTokens.id, row.id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`now() - interval '1 minute'`))));
  return row;
}
