// API tokens: the secret is shown once and only its SHA-256 is stored. Tokens are long random
// strings, so a fast hash is enough: there is nothing to guess from it.
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import type { Role } from "@/lib/domain";
import { execRows, type Db } from "../client";
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

/** Revokes at once for this process (its verified tokens are forgotten after the commit); call it outside a transaction. */
export async function revokeToken(db: Db, id: number, actor: Actor): Promise<void> {
  try {
    await revoke(db, id, actor);
  } finally {
    forgetVerifiedTokens();
  }
}

async function revoke(db: Db, id: number, actor: Actor): Promise<void> {
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

export interface ActiveToken {
  id: number;
  name: string;
  role: Role;
}

function looksLikeToken(token: string): boolean {
  return token.startsWith(TOKEN_PREFIX) && token.length <= 200;
}

/**
 * The live token with this secret, or null, read now. One statement: the lookup, and the note of
 * its use when the last one is more than a minute old (most requests write nothing).
 */
export async function findActiveToken(db: Db, token: string): Promise<ActiveToken | null> {
  if (!looksLikeToken(token)) return null;
  const [row] = await execRows<ActiveToken>(
    db,
    sql`WITH found AS (
          SELECT id, name, role, last_used_at FROM ${apiTokens} WHERE token_hash = ${hashToken(token)} AND revoked_at IS NULL
        ), noted AS (
          UPDATE ${apiTokens} t SET last_used_at = now() FROM found
          WHERE t.id = found.id AND (found.last_used_at IS NULL OR found.last_used_at < now() - interval '1 minute')
        )
        SELECT id, name, role FROM found`,
  );
  return row ? { id: Number(row.id), name: row.name, role: row.role } : null;
}

/**
 * How long a verified token is believed without asking the database. Within this process a
 * revocation ends it at once (`revokeToken` forgets them all). Across processes — a second server
 * on the same PostgreSQL, or `rst-curator token revoke` while the server runs — nothing tells this
 * one: a revoked token keeps working here for at most this long. So does a token row changed by
 * hand in SQL. Its last use is noted when it is verified again, so `last_used_at` lags real use
 * by at most this plus the minute above.
 */
export const VERIFIED_TOKEN_MS = 10_000;
/** Verified tokens kept per database; beyond it the oldest is forgotten (a token in use comes back on its next request). */
const VERIFIED_TOKEN_MAX = 1000;

/** Per database (tests open several in one process), by the secret's hash. */
let verified = new WeakMap<Db, Map<string, { token: ActiveToken; until: number }>>();
/** Bumped by every revocation: a lookup that started before one must not remember what it read. */
let revocations = 0;

function forgetVerifiedTokens(): void {
  revocations++;
  verified = new WeakMap();
}

/** `findActiveToken` for every API request: a token verified in the last `VERIFIED_TOKEN_MS` is not looked up again. */
export async function verifyToken(db: Db, token: string): Promise<ActiveToken | null> {
  if (!looksLikeToken(token)) return null;
  const hash = hashToken(token);
  let cache = verified.get(db);
  if (!cache) verified.set(db, (cache = new Map()));
  const hit = cache.get(hash);
  if (hit && hit.until > Date.now()) return hit.token;
  cache.delete(hash);
  const seen = revocations;
  const row = await findActiveToken(db, token);
  if (row && seen === revocations) {
    const oldest = cache.size >= VERIFIED_TOKEN_MAX ? cache.keys().next().value : undefined;
    if (oldest !== undefined) cache.delete(oldest);
    cache.set(hash, { token: row, until: Date.now() + VERIFIED_TOKEN_MS });
  }
  return row;
}
