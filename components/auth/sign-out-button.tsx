"use client";

import { useState } from "react";
import { signOut } from "./auth-api";

export type SignOutButtonProps = { className: string };

/** Ends this session, then a full page load of the sign-in page (no stale client cache). */
export function SignOutButton({ className }: SignOutButtonProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        disabled={pending}
        className={className}
        onClick={async () => {
          setPending(true);
          setError(null);
          const result = await signOut();
          if (result.ok) {
            window.location.assign("/sign-in");
            return;
          }
          setError(result.message);
          setPending(false);
        }}
      >
        {pending ? "Signing out…" : "Sign out"}
      </button>
      {error && (
        <span role="alert" className="px-2 text-2xs text-bad">
          {error}
        </span>
      )}
    </>
  );
}
