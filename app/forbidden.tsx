import type { Metadata } from "next";
import Link from "next/link";
import { currentActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Not allowed" };

/** Rendered by `forbidden()`: signed in, but the role does not open this page. */
export default async function Forbidden() {
  // Best effort: the page must render even if the session cannot be read here.
  const actor = await currentActor().catch(() => null);
  return (
    <div className="grid min-h-[60dvh] place-items-center px-6">
      <div className="text-center">
        <p className="font-mono text-xs text-faint">403</p>
        <h1 className="mt-1 text-base font-semibold">Not allowed</h1>
        <p className="mt-1 text-[13px] text-muted">
          {actor ? (
            <>
              Your role (<span className="font-medium text-fg">{actor.role}</span>) cannot open this page.
            </>
          ) : (
            "Your role cannot open this page."
          )}{" "}
          Ask an administrator if you need access.
        </p>
        <Link href="/" className="mt-4 inline-block text-[13px] text-accent hover:underline">
          Back to the overview
        </Link>
      </div>
    </div>
  );
}
