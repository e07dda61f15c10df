import Link from "next/link";
import { Bar } from "@/components/ui/bar";
import { formatInt } from "@/lib/format/number";

export type BreakdownItem = { label: string; count: number; href?: string };
export type BreakdownListProps = {
  title: string;
  items: BreakdownItem[];
  tone?: "accent" | "ok" | "bad" | "warn" | "muted";
  empty: string;
};

/** A titled list of labelled counts with proportional bars. */
export function BreakdownList({ title, items, tone = "accent", empty }: BreakdownListProps) {
  const max = Math.max(1, ...items.map((i) => i.count));
  return (
    <section aria-label={title}>
      <h3 className="mb-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">{title}</h3>
      {items.length === 0 ? (
        <p className="text-xs text-faint">{empty}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {items.map((item) => (
            <li key={item.label} className="grid grid-cols-[minmax(0,1fr)_3.5rem_4rem] items-center gap-2 text-xs">
              {item.href ? (
                <Link href={item.href} className="truncate hover:text-accent hover:underline" title={item.label}>
                  {item.label}
                </Link>
              ) : (
                <span className="truncate" title={item.label}>
                  {item.label}
                </span>
              )}
              <span className="text-right font-mono tabular-nums text-muted">{formatInt(item.count)}</span>
              <Bar value={item.count} max={max} tone={tone} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
