import type { FlagCellJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { RULE_TEXT } from "./flag-badges";

export type HeatTableProps = {
  title: string;
  /** What a column is ("round", "operator"), for labels. */
  axis: string;
  cells: FlagCellJson[];
  /** Column keys in display order. */
  columns: string[];
  columnLabel?: (key: string) => string;
  /** The cell the list is filtered by. */
  current: { rule: string; key: string } | null;
  onPick: (rule: string, key: string) => void;
  /** grid placement from the page */
  className?: string;
};

// Fixed steps from the palette (no inline styles under the CSP); both themes define warn.
const STEPS = ["bg-warn/10", "bg-warn/20", "bg-warn/35", "bg-warn/55"] as const;

function step(count: number, max: number): string {
  if (count <= 0) return "";
  return STEPS[Math.min(STEPS.length - 1, Math.floor((count / max) * STEPS.length - 1e-9))] ?? "";
}

/** Open flags per rule (rows) and round or operator (columns); a cell opens the list filtered to it. */
export function HeatTable({ title, axis, cells, columns, columnLabel = (k) => k, current, onPick, className = "" }: HeatTableProps) {
  const rules = [...new Set(cells.map((c) => c.rule))].sort();
  const count = new Map(cells.map((c) => [`${c.rule}\u0000${c.key}`, c.count]));
  const max = Math.max(1, ...cells.map((c) => c.count));
  return (
    <section aria-label={title} className={`min-w-0 rounded-lg border border-line bg-surface ${className}`}>
      <h2 className="border-b border-line px-3 py-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">{title}</h2>
      {rules.length === 0 ? (
        <p className="px-3 py-3 text-xs text-faint">No open flags.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-xs">
            <thead>
              <tr>
                <th scope="col" className="sticky left-0 w-full bg-surface px-2 py-1 text-left text-2xs font-normal whitespace-nowrap text-muted">
                  rule \ {axis}
                </th>
                {columns.map((k) => (
                  <th key={k} scope="col" className="max-w-24 min-w-9 truncate px-1.5 py-1 text-right font-mono text-2xs font-normal text-muted" title={columnLabel(k)}>
                    {columnLabel(k)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={rule} className="border-t border-line">
                  <th scope="row" className="sticky left-0 max-w-44 truncate bg-surface px-2 py-0.5 text-left font-mono font-normal" title={RULE_TEXT[rule] ?? rule}>
                    {rule}
                  </th>
                  {columns.map((k) => {
                    const n = count.get(`${rule}\u0000${k}`) ?? 0;
                    const here = current?.rule === rule && current.key === k;
                    return (
                      <td key={k} className="p-0 text-right">
                        {n === 0 ? (
                          <span className="block px-1.5 py-0.5 font-mono text-faint">·</span>
                        ) : (
                          <button
                            type="button"
                            onClick={() => onPick(rule, k)}
                            aria-label={`${formatInt(n)} open ${rule} flags, ${axis} ${columnLabel(k)}`}
                            aria-pressed={here}
                            className={`block w-full px-1.5 py-0.5 font-mono tabular-nums hover:outline-1 hover:outline-accent ${step(n, max)} ${here ? "outline-2 outline-accent" : ""}`}
                          >
                            {formatInt(n)}
                          </button>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
