import type { ReactNode } from "react";

export type KbdProps = { children: ReactNode };

export function Kbd({ children }: KbdProps) {
  return (
    <kbd className="inline-flex h-4 min-w-4 items-center justify-center rounded border border-line-strong bg-surface px-1 font-mono text-[10px] leading-none text-muted">
      {children}
    </kbd>
  );
}
