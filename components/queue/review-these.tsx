import Link from "next/link";

export type ReviewTheseProps = { search: string };

/** The task table's way into a review queue: the filter on screen becomes the queue's filter. */
export function ReviewThese({ search }: ReviewTheseProps) {
  const q = search.replace(/^\?/, "");
  return (
    <Link
      href={`/review/new${q ? `?${q}` : ""}`}
      className="inline-flex h-7 items-center rounded-md border border-line bg-surface px-2.5 text-xs whitespace-nowrap hover:bg-surface-2"
      title="Make a review queue of the tasks this filter matches"
    >
      Review these
    </Link>
  );
}
