import { PageHeader } from "./page-header";

export type ComingSoonProps = { title: string; what: string };

/** Placeholder for a section that is planned but not built yet. */
export function ComingSoon({ title, what }: ComingSoonProps) {
  return (
    <>
      <PageHeader title={title} />
      <div className="rounded-lg border border-dashed border-line-strong bg-surface px-6 py-10 text-center">
        <p className="text-sm font-medium">Coming soon</p>
        <p className="mx-auto mt-1 max-w-lg text-[13px] text-muted">{what}</p>
      </div>
    </>
  );
}
