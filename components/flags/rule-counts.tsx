import { Bar } from "@/components/ui/bar";
import type { FlagRuleCountJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { RULE_TEXT } from "./flag-badges";

export type RuleCountsProps = {
  rules: FlagRuleCountJson[];
  /** The rule the list is filtered by, if any. */
  current: string;
  onPick: (rule: string) => void;
};

/** Open flags per rule as bars; dismissed, resolved and outdated beside them. Click filters the list. */
export function RuleCounts({ rules, current, onPick }: RuleCountsProps) {
  const max = Math.max(1, ...rules.map((r) => r.open));
  return (
    <section aria-label="Flags per rule" className="rounded-lg border border-line bg-surface">
      <h2 className="border-b border-line px-3 py-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">Open per rule</h2>
      {rules.length === 0 ? (
        <p className="px-3 py-3 text-xs text-faint">No flags in this run yet.</p>
      ) : (
        <ul className="py-1">
          {rules.map((r) => (
            <li key={r.rule}>
              <button
                type="button"
                onClick={() => onPick(r.rule === current ? "" : r.rule)}
                aria-pressed={r.rule === current}
                title={`${RULE_TEXT[r.rule] ?? r.rule} — ${r.open} open, ${r.outdated} outdated, ${r.dismissed} dismissed, ${r.resolved} resolved`}
                className={`grid w-full grid-cols-[minmax(0,11rem)_minmax(0,1fr)_2.5rem] items-center gap-2 px-3 py-0.5 text-left text-xs hover:bg-surface-2 ${r.rule === current ? "bg-accent-soft" : ""}`}
              >
                <span className="truncate font-mono">{r.rule}</span>
                <Bar value={r.open} max={max} tone={r.open > 0 ? "warn" : "muted"} />
                <span className={`text-right font-mono tabular-nums ${r.open > 0 ? "text-fg" : "text-faint"}`}>{formatInt(r.open)}</span>
                <span className="col-span-3 -mt-0.5 truncate text-2xs text-faint">
                  {[r.outdated && `${formatInt(r.outdated)} outdated`, r.dismissed && `${formatInt(r.dismissed)} dismissed`, r.resolved && `${formatInt(r.resolved)} resolved`]
                    .filter(Boolean)
                    .join(" · ") || " "}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
