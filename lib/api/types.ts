// JSON shapes of the API (snake_case, API.md). The client hooks and the server prefetch
// both produce exactly these, so hydrated and fetched data agree. One module per API area;
// import from here.
export type * from "./flag-types";
export type * from "./queue-types";
export type * from "./review-types";
export type * from "./run-types";
export type * from "./task-types";
export type * from "./trial-types";

/** The body of every error answer. */
export interface ApiErrorJson {
  error: { code: string; message: string; details?: unknown };
}
