// The one who is asking: a signed-in person or an API token, with the role that bounds them.
import type { Role } from "@/lib/domain";
import { can, type Permission } from "./permissions";

export interface Actor {
  kind: "user" | "token";
  /** User id, or `token:<id>` for a token (tokens are not users). */
  id: string;
  /** What the audit log shows: an email or `token "<name>"`. */
  label: string;
  role: Role;
  /** The user id for foreign keys (reviews, flags); null for tokens. */
  userId: string | null;
}

/** 401 when nobody is signed in, 403 when the role does not allow it. */
export class AuthError extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

/** Throws unless `actor` may do `permission`; the data layer calls this before every read and write. */
export function authorize(actor: Actor | null | undefined, permission: Permission): Actor {
  if (!actor) throw new AuthError(401, "sign in first");
  if (!can(actor.role, permission)) throw new AuthError(403, `the ${actor.role} role may not ${permission}`);
  return actor;
}

/** For the CLI, which runs on the server's machine with its owner's rights. */
export const CLI_ACTOR: Actor = { kind: "user", id: "cli", label: "command line", role: "admin", userId: null };
