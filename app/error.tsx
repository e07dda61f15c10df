"use client";

import { useEffect } from "react";

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  // Server errors arrive with a generic message and a digest to find them in the server log.
  const message = error instanceof Error ? error.message : String(error);
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;
  return (
    <div className="grid min-h-[60dvh] place-items-center px-6">
      <div role="alert" className="max-w-lg text-center">
        <h1 className="text-base font-semibold">Something went wrong</h1>
        <p className="mt-2 font-mono text-xs break-words text-muted">{message}</p>
        {digest && <p className="mt-1 font-mono text-2xs text-faint">digest {digest}</p>}
        <button
          type="button"
          onClick={() => retry()}
          className="mt-4 h-7 rounded-md border border-line bg-surface px-3 text-[13px] hover:bg-surface-2"
        >
          Try again
        </button>
      </div>
    </div>
  );
}
