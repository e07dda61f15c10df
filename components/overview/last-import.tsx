import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { ImportJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";

export type LastImportProps = { imp: ImportJson | null };

const STATUS_TONE: Record<ImportJson["status"], BadgeTone> = {
  running: "info",
  done: "ok",
  unchanged: "neutral",
  failed: "bad",
};

/** Summary values are whatever the importer recorded; show scalars, summarize the rest. */
function show(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "number") return v.toLocaleString("en-US");
  if (typeof v === "string" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `${v.length} item${v.length === 1 ? "" : "s"}`;
  return JSON.stringify(v).slice(0, 120);
}

export function LastImport({ imp }: LastImportProps) {
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
          {Object.keys(imp.summary).length > 0 && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 font-mono text-2xs">
              {Object.entries(imp.summary)
                .slice(0, 12)
                .map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="text-muted">{k}</dt>
                    <dd className="truncate tabular-nums">{show(v)}</dd>
                  </div>
                ))}
            </dl>
          )}
        </div>
      )}
    </section>
  );
}
