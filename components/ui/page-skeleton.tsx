/** What a page shows while its data loads (the loading.tsx of the read-only sections). */
export function PageSkeleton() {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-3">
      <span className="sr-only">Loading…</span>
      <div className="h-5 w-40 animate-pulse rounded bg-surface-3" />
      <div className="h-16 animate-pulse rounded-lg bg-surface-2" />
      <div className="h-64 animate-pulse rounded-lg bg-surface-2" />
    </div>
  );
}
