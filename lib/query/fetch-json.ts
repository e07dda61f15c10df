// The one place the browser reads the JSON API and trusts its shape.
import type { ApiErrorJson } from "@/lib/api/types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
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
