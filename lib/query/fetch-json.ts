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
  if (!res.ok) throw apiErrorOf(res, json);
  return json as T;
}

/** The ApiError for a refused answer and its parsed body (null when it was not JSON). */
export function apiErrorOf(res: Response, body: unknown): ApiError {
  if (isApiError(body)) return new ApiError(res.status, body.error.code, body.error.message, body.error.details);
  return new ApiError(res.status, "http_error", `${res.status} ${res.statusText}`);
}

/**
 * A write answered with JSON lines (application/x-ndjson): resolves with the first line as soon as
 * it arrives; `rest` resolves with the second (or rejects when it is missing or an error).
 */
export async function sendForLines<First, Rest>(path: string, body: object): Promise<{ first: First; rest: Promise<Rest> }> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/x-ndjson, application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) throw apiErrorOf(res, await res.json().catch(() => null));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const nextLine = async (): Promise<unknown> => {
    for (;;) {
      const end = buffer.indexOf("\n");
      if (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        return JSON.parse(line) as unknown;
      }
      const { value, done } = await reader.read();
      if (done) throw new ApiError(res.status, "incomplete", "the answer ended early");
      buffer += value;
    }
  };
  const first = (await nextLine()) as First;
  const rest = nextLine().then((line) => {
    void reader.cancel().catch(() => {});
    if (isApiError(line)) throw new ApiError(500, line.error.code, line.error.message);
    return line as Rest;
  });
  return { first, rest };
}
