import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { ImportJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";
import { summaryLines } from "./import-summary";

export type LastImportProps = { imp: ImportJson | null };

const STATUS_TONE: Record<ImportJson["status"], BadgeTone> = {
  running: "info",
  done: "ok",
  unchanged: "neutral",
  failed: "bad",
};

export function LastImport({ imp }: LastImportProps) {
  const lines = imp ? summaryLines(imp.summary) : [];
  return (
    <section aria-label="Last ingest">
      <h3 className="mb-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">Last ingest</h3>
      {!imp ? (
        <p className="text-xs text-faint">No ingest recorded.</p>
      ) : (
        <div className="flex flex-col gap-1.5 text-xs">
          <div className="flex items-center gap-2">
            <Badge tone={STATUS_TONE[imp.status]}>{imp.status}</Badge>
            <time dateTime={imp.finished_at ?? imp.started_at} className="font-mono text-muted">
              {formatDateTime(imp.finished_at ?? imp.started_at)}
            </time>
            <span className="text-faint">{imp.format}</span>
          </div>
          <p className="truncate font-mono text-2xs text-muted" title={imp.source_path}>
            {imp.source_path}
          </p>
          {imp.error && <p className="rounded bg-bad-soft px-2 py-1 font-mono text-2xs break-words text-bad">{imp.error}</p>}
          {lines.length > 0 && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-2xs">
              {lines.map((line) => (
                <div key={line.label} className="contents">
                  <dt className="text-muted">{line.label}</dt>
                  <dd className="truncate tabular-nums" title={line.value}>
                    {line.label === "checks" ? (
                      <Link href={`/flags?run=${encodeURIComponent(imp.run)}`} className="text-accent hover:underline">
                        {line.value}
                      </Link>
                    ) : (
                      line.value
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      )}
    </section>
  );
}
