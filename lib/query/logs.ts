// Query factories for trial logs (app/api/v1/trials/{id}/logs/{name}). A log is read in windows
// of lines; the server page seeds the first window under the same key the browser asks for.
import { queryOptions } from "@tanstack/react-query";
import type { LogRangeJson } from "@/lib/api/types";
import { fetchJson } from "./fetch-json";

export type { LogRangeJson };

export interface LogMatchJson {
  line: number;
  start: number;
  end: number;
}

export interface LogSearchJson {
  name: string;
  total_lines: number;
  /** Every occurrence; `matches` lists at most the first 10,000. */
  total: number;
  matches: LogMatchJson[];
  truncated: boolean;
}

export interface LogRef {
  trialId: number;
  name: string;
}

export interface LogSearch {
  q: string;
  regex: boolean;
  caseSensitive: boolean;
}

/** Lines per request: a screen is ~50 lines, so one window covers scrolling a good while. */
export const LOG_WINDOW = 1_000;

export type Fetcher = <T>(path: string, signal?: AbortSignal) => Promise<T>;

export const logKeys = {
  all: ["logs"] as const,
  log: (ref: LogRef) => ["logs", ref.trialId, ref.name] as const,
  windows: (ref: LogRef) => ["logs", ref.trialId, ref.name, "window"] as const,
  window: (ref: LogRef, index: number) => ["logs", ref.trialId, ref.name, "window", index] as const,
  search: (ref: LogRef, s: LogSearch) => ["logs", ref.trialId, ref.name, "search", s.q, s.regex, s.caseSensitive] as const,
};

/** The log's API path; a name keeps its slashes (`verifier/test-stdout.txt`), each part encoded. */
export function logPath(ref: LogRef): string {
  return `/api/v1/trials/${ref.trialId}/logs/${ref.name.split("/").map(encodeURIComponent).join("/")}`;
}

export function logDownloadUrl(ref: LogRef): string {
  return `${logPath(ref)}?download=1`;
}

/** The page of the viewer for a log (and a line). */
export function logPageUrl(ref: LogRef, line?: number): string {
  return `/trials/${ref.trialId}/logs/${ref.name.split("/").map(encodeURIComponent).join("/")}${line ? `#L${line}` : ""}`;
}

export function logWindowQuery(ref: LogRef, index: number, fetcher: Fetcher = fetchJson) {
  const from = index * LOG_WINDOW;
  return queryOptions({
    queryKey: logKeys.window(ref, index),
    queryFn: ({ signal }) => fetcher<LogRangeJson>(`${logPath(ref)}?from=${from}&to=${from + LOG_WINDOW}`, signal),
    // A stored log never changes; windows out of sight are dropped (see evictIdleWindows).
    staleTime: Infinity,
    gcTime: 60_000,
  });
}

export function logSearchQuery(ref: LogRef, s: LogSearch, fetcher: Fetcher = fetchJson) {
  const params = new URLSearchParams({ q: s.q });
  if (s.regex) params.set("regex", "1");
  if (s.caseSensitive) params.set("case", "1");
  return queryOptions({
    queryKey: logKeys.search(ref, s),
    queryFn: ({ signal }) => fetcher<LogSearchJson>(`${logPath(ref)}?${params}`, signal),
    staleTime: Infinity,
    gcTime: 30_000,
    retry: false,
  });
}
