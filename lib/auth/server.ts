// Better Auth on our database: email + password, sessions in the `sessions` table, no sign-up
// (admins create people), failed sign-ins limited and audited. One instance per database, made
// lazily because `next build` imports this module and must not open a database.
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { getDatabase, type Database, type Db } from "@/db/client";
import { recordAudit } from "@/db/queries/audit";
import { getOrCreateSetting } from "@/db/queries/settings";
import { countRecentSignInFailures, getUserAccess } from "@/db/queries/users";
import { accounts, sessions, users, verifications } from "@/db/schema";
import { env } from "@/lib/env";
import { isSafeMethod, isSameOrigin } from "./origin";

/** The one answer to every failed sign-in: it never says which part was wrong. */
export const SIGN_IN_FAILED = "Wrong email or password, or too many attempts. Wait a few minutes and try again.";

export const SESSION_COOKIE_PREFIX = "rst";

/** A per-installation secret: from the environment, or generated once and kept in the database. */
async function sessionSecret(db: Db): Promise<string> {
  return env.authSecret ?? getOrCreateSetting(db, "auth_secret", () => randomBytes(32).toString("base64url"));
}

function clientAddress(headers: Headers | undefined): string {
  return headers?.get("x-forwarded-for")?.split(",")[0]?.trim() || headers?.get("x-real-ip") || "unknown";
}

function bodyEmail(body: unknown): string {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase().slice(0, 320) : "";
}

function createAuth(database: Database, secret: string) {
  const db = database.db;
  const https = env.publicUrl?.startsWith("https:") ?? false;
  return betterAuth({
    appName: "RST Curator",
    secret,
    // A configured public URL wins; otherwise any port on the loopback names, which is how a
    // newcomer reaches `npm start`.
    baseURL: env.publicUrl ?? {
      allowedHosts: ["localhost:*", "127.0.0.1:*", "[::1]:*"],
      fallback: `http://localhost:${env.port}`,
    },
    basePath: "/api/auth",
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 12,
      maxPasswordLength: 256,
      revokeSessionsOnPasswordReset: true,
    },
    session: {
      expiresIn: env.sessionHours * 3600,
      // Sliding expiry: an active reviewer stays signed in, an idle tab does not.
      updateAge: Math.min(3600, Math.floor((env.sessionHours * 3600) / 4)),
      // No cookieCache: every getSession reads the session and its user from the database, which
      // is what lets ./request.ts take the role and the active flag from it (a change applies at once).
    },
    user: {
      additionalFields: {
        role: { type: "string", input: false, defaultValue: "viewer" },
        active: { type: "boolean", input: false, defaultValue: true },
      },
    },
    // Our own limit below counts failures per email and per address; Better Auth's counts every
    // request per address, which a room of reviewers behind one NAT would trip.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: https },
    },
    databaseHooks: {
      session: {
        create: {
          // A deactivated person gets no new session, whichever way they try.
          before: async (session) => {
            return (await getUserAccess(db, session.userId))?.active === true;
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-in/email") {
          const email = bodyEmail(ctx.body);
          const address = clientAddress(ctx.headers);
          const failures = await countRecentSignInFailures(db, email, address);
          // Per address only when we know it: "unknown" would lump everyone together.
          const addressBlocked = address !== "unknown" && failures.byAddress >= env.signInFailureLimit * 4;
          if (failures.byEmail >= env.signInFailureLimit || addressBlocked) {
            await recordAudit(db, {
              actorId: null,
              actorLabel: email || "unknown",
              action: "sign-in.refused",
              details: { email, address, reason: "too many failures" },
            });
            throw new APIError("UNAUTHORIZED", { code: "SIGN_IN_FAILED", message: SIGN_IN_FAILED });
          }
        }
        if (ctx.path === "/change-password") {
          // Changing a password always ends the other sessions, whatever the client asked.
          return { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } };
        }
        return undefined;
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned;
        if (ctx.path === "/sign-in/email") {
          const email = bodyEmail(ctx.body);
          const address = clientAddress(ctx.headers);
          if (isAPIError(returned) || !ctx.context.newSession) {
            await recordAudit(db, { actorId: null, actorLabel: email || "unknown", action: "sign-in.failed", details: { email, address } });
            throw new APIError("UNAUTHORIZED", { code: "SIGN_IN_FAILED", message: SIGN_IN_FAILED });
          }
          const user = ctx.context.newSession.user;
          await recordAudit(db, { actorId: user.id, actorLabel: user.email, action: "sign-in", targetType: "user", targetId: user.id, details: { address } });
        }
        if (ctx.path === "/change-password" && !isAPIError(returned)) {
          const session = ctx.context.session;
          if (session) {
            await recordAudit(db, { actorId: session.user.id, actorLabel: session.user.email, action: "password.change", targetType: "user", targetId: session.user.id });
          }
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Database, Promise<Auth>>();

/** The auth instance for a database (tests pass theirs; the app uses the process-wide one). */
export function authFor(database: Database): Promise<Auth> {
  let auth = instances.get(database);
  if (!auth) {
    auth = sessionSecret(database.db).then((secret) => createAuth(database, secret));
    auth.catch(() => instances.delete(database));
    instances.set(database, auth);
  }
  return auth;
}

export async function getAuth(): Promise<Auth> {
  return authFor(await getDatabase());
}

/**
 * Better Auth's HTTP endpoints behind our own Origin check: Better Auth skips its check when a
 * request carries no cookie, which would let another site sign a browser in to its own account.
 */
export async function handleAuthRequest(database: Database, req: Request): Promise<Response> {
  if (!isSafeMethod(req.method) && !isSameOrigin(req.headers)) {
    return Response.json({ code: "CROSS_ORIGIN", message: "cross-origin request refused" }, { status: 403 });
  }
  return (await authFor(database)).handler(req);
}
