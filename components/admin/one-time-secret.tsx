"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { linkButtonClass } from "@/components/auth/form-controls";
import { CopyButton } from "./copy-button";

export type OneTimeSecretProps = {
  title: ReactNode;
  /** What the secret is, for its accessible name ("One-time password", "API token"). */
  label: string;
  secret: string;
  children?: ReactNode;
  onDismiss: () => void;
};

/** A password or token the server returns once: shown here, kept nowhere else. */
export function OneTimeSecret({ title, label, secret, children, onDismiss }: OneTimeSecretProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLElement>(null);
  // Bring it into view and focus: it is the one thing to act on now.
  useEffect(() => {
    boxRef.current?.scrollIntoView({ block: "nearest" });
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [secret]);

  return (
    <section ref={boxRef} aria-label={label} className="rounded-lg border border-warn/40 bg-warn-soft px-3 py-2.5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-[13px] font-semibold text-fg">{title}</h2>
          <p className="mt-0.5 text-xs text-warn">Shown once: copy it now. It cannot be displayed again.</p>
        </div>
        <button type="button" onClick={onDismiss} className={linkButtonClass}>
          Done
        </button>
      </div>
      <div className="mt-2 flex items-center gap-2">
        <input
          ref={inputRef}
          readOnly
          value={secret}
          aria-label={label}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
          className="h-7 w-full max-w-xl min-w-0 rounded-md border border-line bg-surface px-2 font-mono text-[13px] text-fg"
        />
        <CopyButton text={secret} onFallback={() => inputRef.current?.select()} />
      </div>
      {children}
    </section>
  );
}
