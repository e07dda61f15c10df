// JSON responses and the error shape of API.md: {"error": {"code", "message", "details"?}}.
import type { z } from "zod";

export function json(data: unknown, init?: ResponseInit): Response {
  return Response.json(data, { ...init, headers: { "cache-control": "no-store", ...init?.headers } });
}

export function apiError(status: number, code: string, message: string, details?: unknown): Response {
  return json({ error: details === undefined ? { code, message } : { code, message, details } }, { status });
}

export function badRequest(error: z.ZodError): Response {
  return apiError(
    400,
    "bad_request",
    "invalid parameters",
    error.issues.map((i) => ({ field: i.path.join("."), message: i.message })),
  );
}

export function notFound(what: string): Response {
  return apiError(404, "not_found", `${what} not found`);
}

/** Route ids are positive integers; anything else is a 404, never a database error. */
export function parseId(raw: string): number | null {
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

/** Raw bytes as a download: never rendered by the browser, whatever they claim to be, and
 * revalidated every time (a signed-out browser must not serve them from its cache). */
export function attachment(bytes: Buffer, filename: string, etag: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-cache",
      etag: `"${etag}"`,
    },
  });
}
