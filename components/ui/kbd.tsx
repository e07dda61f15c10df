import type { ReactNode } from "react";

export type KbdProps = { children: ReactNode };

export function Kbd({ children }: KbdProps) {
  return (
    <kbd className="inline-flex h-4 min-w-4 items-center justify-center rounded border border-line-strong bg-surface px-1 font-mono text-[10px] leading-none text-muted">
      {children}
    </kbd>
  );
}

/** A key and what it does, for the shortcut lists. */
export type KeyHelp = [keys: string[], what: string];

/** The body of a shortcut list: each row the keys, then what they do. */
export function KeyList({ items }: { items: readonly KeyHelp[] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 px-4 py-3 text-xs">
      {items.map(([keys, what]) => (
        <div key={what} className="contents">
          <dt className="flex gap-1">
            {keys.map((k) => (
              <Kbd key={k}>{k}</Kbd>
            ))}
          </dt>
          <dd className="text-muted">{what}</dd>
        </div>
      ))}
    </dl>
  );
}
