// Who sent this request: an API token (Authorization: Bearer) or a session cookie. A request that
// shows a token is judged by the token alone — a bad token is never rescued by a cookie.
import type { Database } from "@/db/client";
import { verifyToken } from "@/db/queries/tokens";
import { ROLES, type Role } from "@/lib/domain";
import { AuthError, type Actor } from "./actor";
import { authFor } from "./server";

export type Credential = "token" | "session" | "none";

export interface Authenticated {
  actor: Actor | null;
  via: Credential;
}

export async function authenticate(database: Database, headers: Headers): Promise<Authenticated> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match?.[1] ? await verifyToken(database.db, match[1]) : null;
    if (!token) throw new AuthError(401, "invalid or revoked API token");
    return {
      actor: { kind: "token", id: `token:${token.id}`, label: `token "${token.name}"`, role: token.role, userId: null },
      via: "token",
    };
  }
  const auth = await authFor(database);
  const session = await auth.api.getSession({ headers });
  // The session row may outlive a deactivation or a role change made a moment ago: the person must
  // be read now. Better Auth reads the user row with the session on every call (no cookie cache,
  // no secondary storage is configured in ./server.ts: enabling either would break this).
  const user = session?.user;
  if (!user?.active || !isRole(user.role)) return { actor: null, via: "none" };
  return { actor: { kind: "user", id: user.id, label: user.email, role: user.role, userId: user.id }, via: "session" };
}

function isRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}
