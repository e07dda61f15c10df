import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import type { TrialTestJson } from "@/lib/api/types";
import { formatDuration } from "@/lib/format/date";
import { logPageUrl } from "@/lib/query/logs";

const STATUS_CLASS: Record<string, string> = {
  passed: "text-ok",
  failed: "text-bad",
  error: "text-bad",
  skipped: "text-faint",
};

export type TestsListProps = { trialId: number; tests: TrialTestJson[] };

/** Per-test results, failing first (the order the API gives), each linked to where it is reported. */
export function TestsList({ trialId, tests }: TestsListProps) {
  if (tests.length === 0) return <p className="px-3 py-2 text-xs text-faint">No per-test results (no ctrf.json, and no pytest lines in the verifier output).</p>;
  return (
    <table className="w-full table-fixed text-xs">
      <colgroup>
        <col className="w-20" />
        <col />
        <col className="w-20" />
      </colgroup>
      <thead className="sr-only">
        <tr>
          <th>Status</th>
          <th>Test</th>
          <th>Duration</th>
        </tr>
      </thead>
      <tbody>
        {tests.map((t, i) => (
          <tr key={`${i}:${t.name}`} className="border-t border-line align-top first:border-t-0">
            <td className={`py-1 pl-3 font-mono text-2xs ${STATUS_CLASS[t.status] ?? "text-warn"}`}>{t.status}</td>
            <td className="min-w-0 py-1 pr-2">
              {t.log_name !== null && t.log_line !== null ? (
                <Link href={logPageUrl({ trialId, name: t.log_name }, t.log_line + 1)} className="font-mono break-all hover:text-accent hover:underline" title={`${t.log_name} line ${t.log_line + 1}`}>
                  <VisibleText text={t.name} />
                </Link>
              ) : (
                <span className="font-mono break-all">
                  <VisibleText text={t.name} />
                </span>
              )}
              {t.message && (
                <p className="mt-0.5 line-clamp-3 font-mono text-2xs whitespace-pre-wrap text-muted">
                  <VisibleText text={t.message} />
                </p>
              )}
            </td>
            <td className="py-1 pr-3 text-right font-mono text-2xs text-faint tabular-nums">{t.duration_ms === null ? "" : formatDuration(t.duration_ms)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
