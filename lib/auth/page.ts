// Sign-in for server components: every page asks for the actor itself (layouts and pages render
// in parallel, so a check in the layout alone would not protect a page's data).
import { forbidden, redirect } from "next/navigation";
import { headers } from "next/headers";
import { cache } from "react";
import { getDatabase } from "@/db/client";
import { AuthError, type Actor } from "./actor";
import { can, type Permission } from "./permissions";
import { authenticate } from "./request";

/** Set by the proxy: the path and query the browser asked for, to come back after sign-in. */
export const PATH_HEADER = "x-rst-path";

/** Only a local path is a place to return to: never another site. */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

/** The signed-in actor of this request, or null (once per request). */
export const currentActor = cache(async (): Promise<Actor | null> => {
  try {
    // The headers first: while `next build` prerenders a page, reading them ends the render
    // before the database is opened (db/client refuses to open it while building).
    const requestHeaders = await headers();
    return (await authenticate(await getDatabase(), requestHeaders)).actor;
  } catch (err) {
    if (err instanceof AuthError) return null;
    throw err;
  }
});

/** The actor, or a redirect to sign-in; a role without `permission` gets the 403 page. */
export async function requireActor(permission: Permission = "read"): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) {
    const next = safeNext((await headers()).get(PATH_HEADER));
    redirect(next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`);
  }
  if (!can(actor.role, permission)) forbidden();
  return actor;
}
