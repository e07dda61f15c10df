import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import type { TrialDetailJson } from "@/lib/api/types";
import type { TextDiff } from "@/lib/diff";
import { formatDuration, spanMs } from "@/lib/format/date";
import { formatInt, formatScore } from "@/lib/format/number";
import { logPageUrl } from "@/lib/query/logs";
import { CheckBadge, VerdictBadge } from "./verdict-badge";

export type TrialCompareProps = {
  a: TrialDetailJson;
  b: TrialDetailJson;
  tests: { name: string; a: string | null; b: string | null }[];
  verifier: { diff: TextDiff; clipped: boolean } | null;
};

const STATUS_CLASS: Record<string, string> = { passed: "text-ok", failed: "text-bad", error: "text-bad" };

export function TrialCompare({ a, b, tests, verifier }: TrialCompareProps) {
  const disagree = tests.filter((t) => t.a !== t.b).length;
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-3 md:grid-cols-2">
        <TrialCard trial={a} label="A" />
        <TrialCard trial={b} label="B" />
      </div>
      <section aria-label="Per-test outcomes" className="overflow-hidden rounded-lg border border-line bg-surface">
        <h2 className="flex h-9 items-center gap-3 border-b border-line px-3 text-2xs font-semibold tracking-wide text-muted uppercase">
          Per-test outcomes
          <span className={`font-mono normal-case ${disagree > 0 ? "text-bad" : "text-faint"}`}>
            {disagree} of {tests.length} disagree
          </span>
        </h2>
        {tests.length === 0 ? (
          <p className="px-3 py-3 text-xs text-faint">Neither trial has per-test results.</p>
        ) : (
          <table className="w-full table-fixed text-xs">
            <colgroup>
              <col />
              <col className="w-24" />
              <col className="w-24" />
            </colgroup>
            <thead>
              <tr className="text-left text-2xs text-muted">
                <th className="px-3 py-1 font-medium">test</th>
                <th className="py-1 font-medium">A</th>
                <th className="py-1 font-medium">B</th>
              </tr>
            </thead>
            <tbody>
              {tests.map((t) => (
                <tr key={t.name} className={`border-t border-line ${t.a !== t.b ? "bg-warn-soft/60" : ""}`}>
                  <td className="truncate px-3 py-1 font-mono" title={t.name}>
                    <VisibleText text={t.name} />
                  </td>
                  <td className={`py-1 font-mono text-2xs ${STATUS_CLASS[t.a ?? ""] ?? "text-faint"}`}>{t.a ?? "absent"}</td>
                  <td className={`py-1 font-mono text-2xs ${STATUS_CLASS[t.b ?? ""] ?? "text-faint"}`}>{t.b ?? "absent"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-label="Verifier output diff" className="overflow-hidden rounded-lg border border-line bg-surface">
        <h2 className="flex h-9 items-center gap-3 border-b border-line px-3 text-2xs font-semibold tracking-wide text-muted uppercase">
          Verifier output, A → B
          {verifier && (
            <span className="font-mono font-normal normal-case">
              <span className="text-bad">−{formatInt(verifier.diff.removed)}</span> <span className="text-ok">+{formatInt(verifier.diff.added)}</span>
            </span>
          )}
          {verifier?.clipped && <span className="font-normal normal-case text-warn">first 20,000 lines compared</span>}
        </h2>
        {!verifier ? (
          <p className="px-3 py-3 text-xs text-faint">Neither trial kept verifier output.</p>
        ) : verifier.diff.hunks.length === 0 ? (
          <p className="px-3 py-3 text-xs text-faint">Identical verifier output.</p>
        ) : (
          <div className="overflow-x-auto font-mono text-xs leading-5">
            {verifier.diff.hunks.map((h) => (
              <div key={`${h.old_start}:${h.new_start}`} className="border-t border-line first:border-t-0">
                <div className="bg-surface-2 px-3 text-2xs text-faint">
                  @@ A {h.old_start} · B {h.new_start} @@
                </div>
                {h.lines.map((l, i) => (
                  <div key={i} className={`flex min-w-max ${l.op === "add" ? "bg-ok-soft" : l.op === "del" ? "bg-bad-soft" : ""}`}>
                    <span className="w-12 shrink-0 pr-2 text-right text-faint select-none">{l.old_no ?? ""}</span>
                    <span className="w-12 shrink-0 pr-2 text-right text-faint select-none">{l.new_no ?? ""}</span>
                    <span className={`w-4 shrink-0 select-none ${l.op === "add" ? "text-ok" : l.op === "del" ? "text-bad" : "text-faint"}`}>
                      {l.op === "add" ? "+" : l.op === "del" ? "−" : " "}
                    </span>
                    <span className="pr-6 whitespace-pre">
                      <VisibleText text={l.text} />
                    </span>
                  </div>
                ))}
              </div>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}

function TrialCard({ trial: t, label }: { trial: TrialDetailJson; label: string }) {
  const failed = t.tests.filter((x) => x.status === "failed" || x.status === "error").length;
  return (
    <section aria-label={`Trial ${label}`} className="rounded-lg border border-line bg-surface px-3 py-2 text-xs">
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-faint">{label}</span>
        <CheckBadge check={t.check} />
        <VerdictBadge verdict={t.verdict} check={t.check} />
        <span className="min-w-0 truncate font-mono text-muted" title={t.ext_id}>
          <VisibleText text={t.ext_id} />
        </span>
      </p>
      <dl className="mt-2 grid grid-cols-4 gap-2 font-mono tabular-nums">
        <div>
          <dt className="text-2xs text-muted">reward</dt>
          <dd className="text-sm">{formatScore(t.reward)}</dd>
        </div>
        <div>
          <dt className="text-2xs text-muted">tests failed</dt>
          <dd className={`text-sm ${failed > 0 ? "text-bad" : ""}`}>
            {failed}/{t.tests.length}
          </dd>
        </div>
        <div>
          <dt className="text-2xs text-muted">duration</dt>
          <dd className="text-sm">{formatDuration(spanMs(t.started_at, t.finished_at))}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-2xs text-muted">exception</dt>
          <dd className={`truncate text-sm ${t.exception_type ? "text-warn" : "text-faint"}`} title={t.exception_message ?? undefined}>
            {t.exception_type ? <VisibleText text={t.exception_type} /> : "—"}
          </dd>
        </div>
      </dl>
      <p className="mt-2 flex flex-wrap gap-x-3 text-2xs">
        {t.logs.map((l) => (
          <Link key={l.name} href={logPageUrl({ trialId: t.id, name: l.name })} className="font-mono text-muted hover:text-accent hover:underline">
            <VisibleText text={l.name} />
          </Link>
        ))}
      </p>
    </section>
  );
}
