// The one place the browser reads and writes the JSON API and trusts its shape.
import type { ApiErrorJson } from "@/lib/api/types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The answer's `error.details` (e.g. the current state with a 409). */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

function isApiError(body: unknown): body is ApiErrorJson {
  return typeof body === "object" && body !== null && "error" in body && typeof (body as ApiErrorJson).error?.message === "string";
}

/** GET a JSON API path. The response is typed by the caller's query factory (the API's contract). */
export async function fetchJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { signal, headers: { accept: "application/json" }, credentials: "same-origin" });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    if (isApiError(body)) throw new ApiError(res.status, body.error.code, body.error.message);
    throw new ApiError(res.status, "http_error", `${res.status} ${res.statusText}`);
  }
  return body as T;
}

/**
 * A write to the JSON API; errors become ApiError with the server's message. Always a JSON body
 * (`{}` when there is nothing to say): the API refuses writes with a body of another type.
 */
export async function sendJson<T>(method: "POST" | "PATCH" | "DELETE", path: string, body: object = {}): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    if (isApiError(json)) throw new ApiError(res.status, json.error.code, json.error.message, json.error.details);
    throw new ApiError(res.status, "http_error", `${res.status} ${res.statusText}`);
  }
  return json as T;
}
