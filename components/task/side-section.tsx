import type { ReactNode } from "react";

export type SideSectionProps = { title: string; count?: number; children: ReactNode };

export function SideSection({ title, count, children }: SideSectionProps) {
  return (
    <section aria-label={title} className="rounded-lg border border-line bg-surface">
      <h2 className="flex items-center justify-between border-b border-line px-3 py-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">
        {title}
        {count !== undefined && <span className="font-mono font-normal normal-case">{count}</span>}
      </h2>
      <div className="px-3 py-2">{children}</div>
    </section>
  );
}
