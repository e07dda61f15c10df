// Who sent this request: an API token (Authorization: Bearer) or a session cookie. A request that
// shows a token is judged by the token alone — a bad token is never rescued by a cookie.
import type { Database } from "@/db/client";
import { findActiveToken } from "@/db/queries/tokens";
import { getUserAccess } from "@/db/queries/users";
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
    const token = match?.[1] ? await findActiveToken(database.db, match[1]) : null;
    if (!token) throw new AuthError(401, "invalid or revoked API token");
    return {
      actor: { kind: "token", id: `token:${token.id}`, label: `token "${token.name}"`, role: token.role, userId: null },
      via: "token",
    };
  }
  const auth = await authFor(database);
  const session = await auth.api.getSession({ headers });
  if (!session) return { actor: null, via: "none" };
  // The session row may outlive a deactivation or a role change made a moment ago: read the person now.
  const user = await getUserAccess(database.db, session.user.id);
  if (!user?.active) return { actor: null, via: "none" };
  return { actor: { kind: "user", id: user.id, label: user.email, role: user.role, userId: user.id }, via: "session" };
}
