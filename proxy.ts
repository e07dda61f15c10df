// Runs before every request: a fresh CSP nonce (Next.js puts it on its own scripts), the path
// for returning after sign-in, and the security headers. Authorization is NOT decided here:
// pages, route handlers and the data layer check it themselves.
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy } from "@/lib/auth/csp";
import { PATH_HEADER } from "@/lib/auth/page";
import { env } from "@/lib/env";

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy(nonce, env.isDevelopment);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set(PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  return response;
}

// Not for the JSON API (/api/v1): its answers are never documents that run scripts, so they need
// no nonce, and they get a fixed CSP that allows nothing (next.config.ts) without this step's cost
// on every request of the review queue. Nor for run uploads: a request the proxy sees has its body
// buffered and cut at proxyClientMaxBodySize (10 MB), while the ingest route streams archives of
// many gigabytes.
export const config = {
  matcher: [{ source: "/((?!_next/static|_next/image|icon.svg|favicon.ico|api/v1/).*)" }],
};
