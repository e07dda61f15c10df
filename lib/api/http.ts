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
