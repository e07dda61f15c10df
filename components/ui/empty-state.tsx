import type { ReactNode } from "react";

export type EmptyStateProps = { title: string; children?: ReactNode };

export function EmptyState({ title, children }: EmptyStateProps) {
  return (
    <div className="rounded-lg border border-dashed border-line-strong bg-surface px-6 py-10 text-center">
      <h2 className="text-sm font-semibold">{title}</h2>
      {children && <div className="mx-auto mt-2 max-w-lg text-[13px] text-muted">{children}</div>}
    </div>
  );
}
