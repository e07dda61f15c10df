"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { VisibleText } from "@/components/code/visible-text";
import type { TrialJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";
import { formatBytes, formatInt, formatScore } from "@/lib/format/number";
import { logPageUrl } from "@/lib/query/logs";
import { compareHref } from "./links";
import { PhaseTimeline } from "./phase-timeline";
import { TestsList } from "./tests-list";
import { CheckBadge, VerdictBadge } from "./verdict-badge";

export type TrialsSectionProps = { taskId: number; trials: TrialJson[] };

/** Every validation trial of the task; what went against expectation opens by itself. */
export function TrialsSection({ taskId, trials }: TrialsSectionProps) {
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (id: number) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const [a, b] = picked;
  return (
    <section id="trials" aria-label="Validation trials" className="scroll-mt-14 overflow-hidden rounded-lg border border-line bg-surface">
      <header className="flex h-9 items-center gap-3 border-b border-line px-3">
        <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">Validation trials</h2>
        <span className="font-mono text-2xs text-faint">{trials.length}</span>
        <span className="ml-auto text-2xs text-faint">{picked.length < 2 ? "tick two trials to compare them" : ""}</span>
        {a !== undefined && b !== undefined ? (
          <Link href={compareHref(taskId, a, b)} className="rounded border border-line-strong px-2 py-0.5 text-xs hover:border-accent hover:text-accent">
            Compare 2
          </Link>
        ) : null}
      </header>
      {trials.length === 0 ? (
        <p className="px-3 py-4 text-xs text-faint">No validation trials were imported for this task.</p>
      ) : (
        <ul>
          {trials.map((t) => (
            <TrialItem key={t.id} trial={t} picked={picked.includes(t.id)} onPick={() => toggle(t.id)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function testTally(t: TrialJson): string {
  if (t.tests.length === 0) return "";
  const failed = t.tests.filter((x) => x.status === "failed" || x.status === "error").length;
  return failed > 0 ? `${failed}/${t.tests.length} failed` : `${t.tests.length} passed`;
}

function TrialItem({ trial: t, picked, onPick }: { trial: TrialJson; picked: boolean; onPick: () => void }) {
  const [open, setOpen] = useState(t.verdict !== "as-expected" && t.verdict !== "agent");
  // A link to this trial (`#trial-<id>`, e.g. a flag's evidence) opens it.
  useEffect(() => {
    const read = () => window.location.hash === `#trial-${t.id}` && setOpen(true);
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, [t.id]);
  const tally = testTally(t);
  return (
    <li id={`trial-${t.id}`} className="scroll-mt-14 border-t border-line first:border-t-0 target:bg-mark-soft" data-trial={t.ext_id}>
      <div className="flex min-h-9 flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5 text-xs">
        <input type="checkbox" checked={picked} onChange={onPick} aria-label={`Pick ${t.ext_id} to compare`} className="accent-accent" />
        <button
          type="button"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          className="flex min-w-0 flex-1 items-center gap-2 text-left focus-visible:outline-2 focus-visible:outline-accent"
        >
          <span className={`text-faint transition-transform ${open ? "rotate-90" : ""}`} aria-hidden>
            ▸
          </span>
          <CheckBadge check={t.check} />
          <VerdictBadge verdict={t.verdict} check={t.check} />
          <span className="w-10 shrink-0 text-right font-mono tabular-nums" title="reward">
            {formatScore(t.reward)}
          </span>
          <span className="min-w-0 truncate font-mono text-muted" title={t.ext_id}>
            <VisibleText text={t.ext_id} />
          </span>
          {t.exception_type && (
            <span className="shrink-0 truncate font-mono text-warn" title={t.exception_message ?? undefined}>
              <VisibleText text={t.exception_type} />
            </span>
          )}
        </button>
        <span
          className={`w-20 shrink-0 text-right text-2xs ${t.verdict === "unexpected" && tally.includes("failed") ? "text-bad" : "text-faint"}`}
          title={t.verdict === "as-expected" && tally.includes("failed") ? "Failing tests are what this check expects" : undefined}
        >
          {tally}
        </span>
        <PhaseTimeline startedAt={t.started_at} finishedAt={t.finished_at} phases={t.phases} />
      </div>
      {open && <TrialDetails trial={t} />}
    </li>
  );
}

function TrialDetails({ trial: t }: { trial: TrialJson }) {
  return (
    <div className="grid gap-3 border-t border-line bg-surface-2/50 px-3 py-2 lg:grid-cols-[minmax(0,1fr)_260px]">
      <div className="flex min-w-0 flex-col gap-2">
        {t.exception_type && (
          <div className="rounded border border-warn/40 bg-warn-soft px-2 py-1.5 text-xs">
            <p className="font-medium text-warn">
              {t.reward === null ? "Infrastructure error — not a verifier verdict: " : "Exception: "}
              <span className="font-mono">
                <VisibleText text={t.exception_type} />
              </span>
            </p>
            {t.exception_message && (
              <pre className="mt-1 max-h-40 overflow-auto font-mono text-2xs whitespace-pre-wrap text-fg">
                <VisibleText text={t.exception_message} />
              </pre>
            )}
          </div>
        )}
        {t.problems.length > 0 && (
          <ul className="rounded border border-warn/40 px-2 py-1.5 text-2xs text-warn">
            {t.problems.map((p) => (
              <li key={p}>
                <VisibleText text={p} />
              </li>
            ))}
          </ul>
        )}
        <div className="overflow-hidden rounded border border-line bg-surface">
          <TestsList trialId={t.id} tests={t.tests} />
        </div>
      </div>
      <div className="flex flex-col gap-2 text-2xs">
        <ul className="overflow-hidden rounded border border-line bg-surface">
          {t.logs.map((l) => (
            <li key={l.name} className="flex items-center gap-2 border-t border-line px-2 py-1 first:border-t-0">
              <Link href={logPageUrl({ trialId: t.id, name: l.name })} className="min-w-0 flex-1 font-mono break-all hover:text-accent hover:underline" title={l.name}>
                <VisibleText text={l.name} />
              </Link>
              <span className="shrink-0 font-mono text-faint tabular-nums">{formatInt(l.lines)} ln</span>
              <span className="w-14 shrink-0 text-right font-mono text-faint tabular-nums">{formatBytes(l.bytes)}</span>
            </li>
          ))}
          {t.logs.length === 0 && <li className="px-2 py-1 text-faint">No logs.</li>}
        </ul>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5 text-muted">
          <dt>started</dt>
          <dd className="font-mono text-fg">{formatDateTime(t.started_at)}</dd>
          {t.agent_name && (
            <>
              <dt>agent</dt>
              <dd className="truncate font-mono text-fg">
                <VisibleText text={t.model_name ? `${t.agent_name} · ${t.model_name}` : t.agent_name} />
              </dd>
            </>
          )}
          <dt>source</dt>
          <dd className="truncate font-mono text-fg">{t.source === "run" || t.source === null ? "run trials/" : <VisibleText text={t.source} />}</dd>
        </dl>
      </div>
    </div>
  );
}
