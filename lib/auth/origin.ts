// Cross-site request checks for writes that ride on a session cookie. Browsers always send
// Origin on cross-origin and on same-origin POSTs; a write without one is refused, because a
// script with an API token carries no cookie and never reaches this check.
import { env } from "@/lib/env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/** Whether the request's Origin is this dashboard (its configured URL, or the host it was sent to). */
export function isSameOrigin(headers: Headers): boolean {
  if (headers.get("sec-fetch-site") === "cross-site") return false;
  const origin = headers.get("origin");
  if (!origin || origin === "null") return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (env.publicUrl) return url.origin === new URL(env.publicUrl).origin;
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  return host !== null && url.host === host && (url.protocol === "http:" || url.protocol === "https:");
}

/**
 * Whether the browser says another site started this request (a link or form elsewhere). Reads
 * that cost much and leave a trace (exports) refuse such requests when they ride on a cookie;
 * a typed address or a bookmark says `none`, the dashboard's own link `same-origin`.
 */
export function isCrossSite(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}
