"use client";

import { useEffect, useState } from "react";
import { buttonClass } from "@/components/auth/form-controls";

export type CopyButtonProps = { text: string; label?: string; onFallback?: () => void };

/** Copies to the clipboard; where the browser refuses (plain http), asks the caller to select the text instead. */
export function CopyButton({ text, label = "Copy", onFallback }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      className={buttonClass}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setState("copied");
        } catch {
          setState("failed");
          onFallback?.();
        }
      }}
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : label}</span>
    </button>
  );
}
