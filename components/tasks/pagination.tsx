import { formatInt } from "@/lib/format/number";
import { formatTotal } from "@/lib/tasks/total";

export type PaginationProps = {
  offset: number | null;
  count: number;
  total: number;
  /** The total is a lower bound ("10,000+"). */
  totalIsEstimate: boolean;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  limit: number;
  onLimit: (limit: number) => void;
};

const LIMITS = [50, 100, 200] as const;
const button =
  "h-7 rounded-md border border-line bg-surface px-2.5 text-xs hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-surface";

export function Pagination({ offset, count, total, totalIsEstimate, hasPrev, hasNext, onPrev, onNext, limit, onLimit }: PaginationProps) {
  const range =
    count === 0 ? "0" : offset === null ? `${formatInt(count)} rows` : `${formatInt(offset + 1)}–${formatInt(offset + count)}`;
  return (
    <nav aria-label="Pages" className="flex items-center gap-2 text-xs">
      <p className="text-muted" aria-live="polite">
        <span className="font-mono tabular-nums text-fg">{range}</span> of{" "}
        <span className="font-mono tabular-nums text-fg" title={totalIsEstimate ? "at least this many: counting stops here to stay fast" : undefined}>
          {formatTotal(total, totalIsEstimate)}
        </span>
      </p>
      <label className="ml-2 flex items-center gap-1 text-muted">
        <span className="sr-only">Rows per page</span>
        <select
          value={limit}
          onChange={(e) => onLimit(Number(e.target.value))}
          className="h-7 rounded-md border border-line bg-surface px-1.5 text-xs text-fg"
        >
          {(LIMITS.some((l) => l === limit) ? [...LIMITS] : [...LIMITS, limit].sort((a, b) => a - b)).map((l) => (
            <option key={l} value={l}>
              {l} / page
            </option>
          ))}
        </select>
      </label>
      <button type="button" className={button} onClick={onPrev} disabled={!hasPrev} aria-label="Previous page" title="Previous page ([)">
        ‹ Prev
      </button>
      <button type="button" className={button} onClick={onNext} disabled={!hasNext} aria-label="Next page" title="Next page (])">
        Next ›
      </button>
    </nav>
  );
}
