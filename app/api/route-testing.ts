// Calling the route handlers of /api/v1 in tests as Next would: a Request in, a Response out, with
// a session cookie from a real sign-in or a bearer token. Shared by the route tests.
import path from "node:path";
import type { Database } from "@/db/client";
import { handleAuthRequest } from "@/lib/auth/server";
import type { Role } from "@/lib/domain";

export const ORIGIN = "http://localhost:3000";
export const PASSWORD = "correct horse battery staple";
export const ROLE_ORDER: Role[] = ["viewer", "reviewer", "admin"];

export type Handler = (req: Request, ctx: { params: Promise<Record<string, unknown>> }) => Promise<Response>;
export type Module = Record<string, Handler | unknown>;

export interface Case {
  /** The route file under app/api/v1, e.g. "tasks/[id]". */
  file: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  url: string;
  params?: Record<string, unknown>;
  /** A JSON body, or a function making one that must differ on each call (a unique name, the current version). */
  body?: unknown;
  /** A non-JSON body (the ingest upload). */
  raw?: { type: string; bytes: Buffer };
  /** Least role allowed. */
  role: Role;
}

export async function signIn(database: Database, email: string, password: string): Promise<Response> {
  return handleAuthRequest(
    database,
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { host: "localhost:3000", "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": "10.0.0.1" },
      body: JSON.stringify({ email, password }),
    }),
  );
}

export function cookieOf(res: Response): string {
  const set = res.headers.getSetCookie();
  const session = set.find((c) => c.includes("session_token="));
  if (!session) throw new Error(`no session cookie in ${JSON.stringify(set)}`);
  return session.split(";")[0] ?? "";
}

/** Calls the case's handler with these headers (a JSON body unless the case carries raw bytes). */
export async function callRoute(c: Case, headers: Record<string, string>): Promise<Response> {
  const mod = (await import(path.resolve("app/api/v1", c.file, "route.ts"))) as Module;
  const handler = mod[c.method] as Handler;
  const hasBody = c.method !== "GET" && c.method !== "DELETE";
  const body: unknown = typeof c.body === "function" ? await (c.body as () => unknown)() : c.body;
  const req = new Request(`${ORIGIN}${c.url}`, {
    method: c.method,
    headers: { host: "localhost:3000", ...(hasBody ? { "content-type": c.raw?.type ?? "application/json" } : {}), ...headers },
    body: hasBody ? (c.raw ? new Uint8Array(c.raw.bytes) : JSON.stringify(body ?? {})) : undefined,
  });
  return handler(req, { params: Promise.resolve(c.params ?? {}) });
}
