import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import { StatusBadge } from "@/components/ui/badge";
import type { RunValidationJson, ValidationCell } from "@/lib/api/types";
import { CHECK_KINDS, type CheckKind, type TaskStatus } from "@/lib/domain";
import { formatInt } from "@/lib/format/number";
import { VERDICT_LABEL, type Verdict } from "@/lib/trials/verdict";

const VERDICTS: { verdict: Verdict; className: string }[] = [
  { verdict: "as-expected", className: "bg-ok/70" },
  { verdict: "agent", className: "bg-faint/60" },
  { verdict: "unexpected", className: "bg-bad" },
  { verdict: "infra-error", className: "bg-warn" },
  { verdict: "no-reward", className: "bg-warn/50" },
];

const CHECK_HEADER: Record<CheckKind, string> = {
  oracle: "oracle",
  repeat: "repeat",
  nop: "no-op",
  "parent-solution": "parent solution",
  agent: "model runs",
};

export function ValidationView({ data }: { data: RunValidationJson }) {
  const rounds = [...new Set(data.cells.map((c) => c.round))].sort((a, b) => a - b);
  const checks = CHECK_KINDS.filter((k) => data.cells.some((c) => c.check === k));
  const at = new Map<string, ValidationCell[]>();
  for (const c of data.cells) {
    const key = `${c.round}:${c.check}`;
    at.set(key, [...(at.get(key) ?? []), c]);
  }
  return (
    <div className="flex flex-col gap-4">
      <section aria-label="Outcomes per round" className="overflow-hidden rounded-lg border border-line bg-surface">
        <header className="flex h-9 flex-wrap items-center gap-x-4 border-b border-line px-3">
          <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">Outcomes per round</h2>
          <ul className="ml-auto flex flex-wrap gap-3 text-2xs text-muted">
            {VERDICTS.map((v) => (
              <li key={v.verdict} className="flex items-center gap-1">
                <span className={`inline-block size-2 rounded-sm ${v.className}`} aria-hidden />
                {VERDICT_LABEL[v.verdict]}
              </li>
            ))}
          </ul>
        </header>
        {rounds.length === 0 ? (
          <p className="px-3 py-4 text-xs text-faint">No validation trials were imported for this run.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-xs">
              <thead>
                <tr className="text-left text-2xs text-muted">
                  <th className="w-16 px-3 py-1 font-medium">round</th>
                  {checks.map((k) => (
                    <th key={k} className="px-3 py-1 font-medium">
                      {CHECK_HEADER[k]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rounds.map((r) => (
                  <tr key={r} className="border-t border-line">
                    <td className="px-3 py-1.5 font-mono tabular-nums">R{r}</td>
                    {checks.map((k) => (
                      <td key={k} className="px-3 py-1.5">
                        <OutcomeBar cells={at.get(`${r}:${k}`) ?? []} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <div className="grid gap-4 xl:grid-cols-2">
        <section aria-label="Recurring exceptions" className="overflow-hidden rounded-lg border border-line bg-surface">
          <h2 className="flex h-9 items-center border-b border-line px-3 text-2xs font-semibold tracking-wide text-muted uppercase">Recurring exceptions</h2>
          {data.exceptions.length === 0 ? (
            <p className="px-3 py-4 text-xs text-faint">No trial raised an exception.</p>
          ) : (
            <table className="w-full table-fixed text-xs">
              <colgroup>
                <col className="w-56" />
                <col className="w-16" />
                <col className="w-16" />
                <col />
              </colgroup>
              <thead>
                <tr className="text-left text-2xs text-muted">
                  <th className="px-3 py-1 font-medium">exception</th>
                  <th className="py-1 text-right font-medium">trials</th>
                  <th className="py-1 text-right font-medium">tasks</th>
                  <th className="px-3 py-1 font-medium">first message</th>
                </tr>
              </thead>
              <tbody>
                {data.exceptions.map((e) => (
                  <tr key={e.exception_type} className="border-t border-line align-top">
                    <td className="truncate px-3 py-1 font-mono text-warn" title={e.exception_type}>
                      <VisibleText text={e.exception_type} />
                    </td>
                    <td className="py-1 text-right font-mono tabular-nums">{formatInt(e.trials)}</td>
                    <td className="py-1 text-right font-mono tabular-nums">{formatInt(e.tasks)}</td>
                    <td className="truncate px-3 py-1 font-mono text-2xs text-muted" title={e.example ?? undefined}>
                      <Link href={`/tasks/${e.example_task_id}#trials`} className="hover:text-accent hover:underline">
                        <VisibleText text={e.example ?? "(no message)"} />
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <section aria-label="Never validated" className="overflow-hidden rounded-lg border border-line bg-surface">
          <h2 className="flex h-9 items-center gap-3 border-b border-line px-3 text-2xs font-semibold tracking-wide text-muted uppercase">
            Validation never completed
            <span className="font-mono font-normal normal-case">{formatInt(data.unvalidated_total)} tasks</span>
            {data.unvalidated_total > data.unvalidated.length && (
              <span className="font-normal normal-case text-faint">first {formatInt(data.unvalidated.length)} shown</span>
            )}
          </h2>
          {data.unvalidated.length === 0 ? (
            <p className="px-3 py-4 text-xs text-faint">Every task has an oracle run that produced a reward.</p>
          ) : (
            <div className="max-h-[420px] overflow-y-auto">
              <table className="w-full text-xs">
                <thead className="sticky top-0 bg-surface">
                  <tr className="text-left text-2xs text-muted">
                    <th className="px-3 py-1 font-medium">task</th>
                    <th className="py-1 font-medium">round</th>
                    <th className="py-1 font-medium">status</th>
                    <th className="py-1 text-right font-medium">trials</th>
                    <th className="px-3 py-1 font-medium">why</th>
                  </tr>
                </thead>
                <tbody>
                  {data.unvalidated.map((t) => (
                    <tr key={t.id} className="border-t border-line">
                      <td className="px-3 py-1 font-mono">
                        <Link href={`/tasks/${t.id}#trials`} className="text-accent hover:underline">
                          <VisibleText text={t.task_id} />
                        </Link>
                      </td>
                      <td className="py-1 font-mono tabular-nums">R{t.round}</td>
                      <td className="py-1">
                        <StatusBadge status={t.status as TaskStatus} />
                      </td>
                      <td className="py-1 text-right font-mono tabular-nums">{t.trials}</td>
                      <td className="truncate px-3 py-1 font-mono text-2xs text-muted">
                        {t.trials === 0 ? "no trials" : t.exception_type ? <VisibleText text={t.exception_type} /> : "no oracle reward"}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

/** One round × check: a bar split by outcome, and the counts that matter. */
function OutcomeBar({ cells }: { cells: ValidationCell[] }) {
  const total = cells.reduce((n, c) => n + c.trials, 0);
  if (total === 0) return <span className="text-faint">—</span>;
  const count = (v: Verdict) => cells.filter((c) => c.verdict === v).reduce((n, c) => n + c.trials, 0);
  const off = count("unexpected");
  const broken = count("infra-error") + count("no-reward");
  const title = VERDICTS.map((v) => `${VERDICT_LABEL[v.verdict]}: ${formatInt(count(v.verdict))}`).join("\n");
  return (
    <div className="flex items-center gap-2" title={title}>
      <div className="flex h-2 w-28 shrink-0 overflow-hidden rounded-sm bg-surface-3" role="img" aria-label={title.replaceAll("\n", ", ")}>
        {VERDICTS.map((v) => {
          const n = count(v.verdict);
          return n === 0 ? null : <span key={v.verdict} className={v.className} style={{ width: `${(n / total) * 100}%` }} />;
        })}
      </div>
      <span className="font-mono text-2xs whitespace-nowrap tabular-nums text-muted">
        {formatInt(total)}
        {off > 0 && <span className="text-bad"> · {formatInt(off)} off</span>}
        {broken > 0 && <span className="text-warn"> · {formatInt(broken)} err</span>}
      </span>
    </div>
  );
}
