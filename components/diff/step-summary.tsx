import { VisibleText } from "@/components/code/visible-text";
import type { StepSummary as Summary } from "@/lib/diff/summary";
import { formatInt } from "@/lib/format/number";

export type StepSummaryProps = { summary: Summary; title: string; compact?: boolean };

/** Items listed per column: beyond it a summary no longer answers "did the three move together?". */
const MAX_ITEMS = 200;

type Column = { key: string; label: string; unit: [string, string]; added: string[]; removed: string[]; mono: boolean };

function columnsOf(s: Summary): Column[] {
  return [
    { key: "commands", label: "Solution", unit: ["command", "commands"], added: s.commands, removed: s.removedCommands, mono: true },
    { key: "tests", label: "Verifier", unit: ["test", "tests"], added: s.tests, removed: s.removedTests, mono: true },
    { key: "sentences", label: "Instruction", unit: ["sentence", "sentences"], added: s.sentences, removed: s.removedSentences, mono: false },
  ];
}

/** Did the three parts move together? The five-second question of a review. */
function verdict(cols: Column[]): { ok: boolean; text: string } {
  const still = cols.filter((c) => c.added.length === 0).map((c) => c.label.toLowerCase());
  if (still.length === 0) return { ok: true, text: "solution, verifier and instruction all grew" };
  if (still.length === 3) return { ok: false, text: "nothing new in solution, verifier or instruction" };
  return { ok: false, text: `nothing new in the ${still.join(" or the ")}` };
}

export function StepSummary({ summary, title, compact = false }: StepSummaryProps) {
  const cols = columnsOf(summary);
  const v = verdict(cols);
  return (
    <section aria-label={title} className="rounded-lg border border-line bg-surface">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-surface-2 px-3 py-1.5">
        <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">{title}</h2>
        <span className={`rounded px-1.5 text-2xs font-medium ${v.ok ? "bg-ok-soft text-ok" : "bg-warn-soft text-warn"}`}>{v.text}</span>
      </header>
      <div className="grid divide-y divide-line md:grid-cols-3 md:divide-x md:divide-y-0">
        {cols.map((c) => (
          <div key={c.key} className="min-w-0 px-3 py-2">
            <h3 className="mb-1 flex items-baseline gap-1.5 text-xs">
              <span className="font-medium">{c.label}</span>
              <span className={`font-mono tabular-nums ${c.added.length > 0 ? "text-ok" : "text-faint"}`}>
                +{formatInt(c.added.length)} {c.unit[c.added.length === 1 ? 0 : 1]}
              </span>
              {c.removed.length > 0 && <span className="font-mono text-bad tabular-nums">−{formatInt(c.removed.length)}</span>}
            </h3>
            {c.added.length + c.removed.length === 0 ? (
              <p className="text-2xs text-faint">No new {c.unit[1]}.</p>
            ) : (
              <ul className={`flex flex-col gap-0.5 overflow-y-auto ${compact ? "max-h-32" : "max-h-56"}`}>
                {c.added.slice(0, MAX_ITEMS).map((item, i) => (
                  <li key={`a${i}`} className={`flex gap-1.5 text-xs ${c.mono ? "font-mono text-[11.5px]" : ""}`}>
                    <span aria-label="added" className="shrink-0 text-ok">+</span>
                    <span className="min-w-0 break-words whitespace-pre-wrap">
                      <VisibleText text={item} />
                    </span>
                  </li>
                ))}
                {c.removed.slice(0, Math.max(0, MAX_ITEMS - c.added.length)).map((item, i) => (
                  <li key={`r${i}`} className={`flex gap-1.5 text-xs text-muted ${c.mono ? "font-mono text-[11.5px]" : ""}`}>
                    <span aria-label="removed" className="shrink-0 text-bad">−</span>
                    <span className="min-w-0 break-words whitespace-pre-wrap line-through decoration-bad/50">
                      <VisibleText text={item} />
                    </span>
                  </li>
                ))}
                {c.added.length + c.removed.length > MAX_ITEMS && (
                  <li className="text-2xs text-faint">
                    … and {formatInt(c.added.length + c.removed.length - MAX_ITEMS)} more {c.unit[1]} (the diff has them all)
                  </li>
                )}
              </ul>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
