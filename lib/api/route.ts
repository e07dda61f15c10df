// Every route handler of /api/v1 goes through `route`: it authenticates (token or session),
// refuses cookie-borne writes from another origin, checks the role, and maps our errors to the
// API.md error shape. The data layer checks the role again: this is not the only gate.
import { getDatabase } from "@/db/client";
import { UserChangeError } from "@/db/queries/users";
import { AuthError, authorize, type Actor } from "@/lib/auth/actor";
import { isCrossSite, isSafeMethod, isSameOrigin } from "@/lib/auth/origin";
import type { Permission } from "@/lib/auth/permissions";
import { authenticate } from "@/lib/auth/request";
import { apiError } from "./http";

export interface RouteContext<P> {
  req: Request;
  params: P;
  actor: Actor;
}

type NextContext<P> = { params: Promise<P> };

/** What a write's body may be: JSON (every route but one), or an upload (the ingest route: a run archive or a JSONL file). */
export type BodyKind = "json" | "archive";

/** The body of a JSON write, read once by `route` and handed to `readJson`. */
const bodies = new WeakMap<Request, string>();

/** Types a cross-site form cannot send (it is limited to form encodings and text/plain). */
const ARCHIVE_TYPES = /^application\/(gzip|x-gzip|x-tar|octet-stream|x-ndjson|jsonl)\b/i;

export interface RouteOptions {
  body?: BodyKind;
  /** Refuse a cookie-borne request that another site started, even a GET (exports). */
  sameSiteOnly?: boolean;
}

export function route<P = Record<string, never>>(permission: Permission, handler: (ctx: RouteContext<P>) => Promise<Response>, opts: RouteOptions = {}) {
  return async (req: Request, ctx: NextContext<P>): Promise<Response> => {
    try {
      const { actor, via } = await authenticate(await getDatabase(), req.headers);
      if (!isSafeMethod(req.method) && via === "session" && !isSameOrigin(req.headers)) {
        return apiError(403, "cross_origin", "cross-origin request refused: writes with a session cookie must come from the dashboard's own pages");
      }
      if (opts.sameSiteOnly && via === "session" && isCrossSite(req.headers)) {
        return apiError(403, "cross_origin", "cross-site request refused: start this from the dashboard's own pages, or use an API token");
      }
      const allowed = authorize(actor, permission);
      if (!isSafeMethod(req.method)) {
        const type = req.headers.get("content-type") ?? "";
        if (opts.body === "archive") {
          if (!ARCHIVE_TYPES.test(type)) return apiError(415, "unsupported_media_type", "send the archive as application/gzip or application/x-tar, a JSONL file as application/x-ndjson");
        } else {
          // A body must be JSON. A DELETE without a body needs no type. (Looked at, not trusted to
          // headers: over HTTP/2 a body needs no Content-Length.) JSON bodies are small; `readJson`
          // caps them, and takes the text read here rather than a clone of the stream.
          const text = req.body === null ? "" : await req.text();
          bodies.set(req, text);
          if (text !== "" && !/^application\/json\b/i.test(type)) return apiError(415, "unsupported_media_type", "send the body as application/json");
        }
      }
      return await handler({ req, params: ctx?.params ? await ctx.params : ({} as P), actor: allowed });
    } catch (err) {
      if (err instanceof AuthError) return apiError(err.status, err.status === 401 ? "unauthorized" : "forbidden", err.message);
      if (err instanceof UserChangeError) return apiError(err.status, err.status === 404 ? "not_found" : "conflict", err.message);
      throw err;
    }
  };
}

/** Reads a JSON body, or answers 400 naming the problem. */
export async function readJson(req: Request): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  const text = bodies.get(req) ?? (await req.text());
  if (text.length > 1_000_000) return { ok: false, response: apiError(413, "too_large", "the JSON body is larger than 1 MB") };
  try {
    return { ok: true, body: text === "" ? {} : (JSON.parse(text) as unknown) };
  } catch (err) {
    return { ok: false, response: apiError(400, "bad_json", `the body is not valid JSON: ${(err as Error).message}`) };
  }
}
