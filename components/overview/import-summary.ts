// What the Overview says about an import, from the summary the importer recorded
// (lib/ingest IngestSummary; older imports and other formats may lack fields or have others).
import { formatDuration } from "@/lib/format/date";
import { formatBytes, formatInt } from "@/lib/format/number";

export interface SummaryLine {
  label: string;
  value: string;
}

/** Shown elsewhere (the header line, the run) or internal. */
const SHOWN_ELSEWHERE = new Set(["importId", "run", "runId", "format", "unchanged"]);
/** Read into the lines below. */
const KNOWN = new Set(["candidates", "tasksNew", "tasksChanged", "tasksUnchanged", "trialsNew", "files", "blobsNew", "bytesNew", "durationMs", "checks", "warnings"]);

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const plural = (n: number, word: string) => `${formatInt(n)} ${word}${n === 1 ? "" : "s"}`;

export function summaryLines(summary: Record<string, unknown>): SummaryLine[] {
  const lines: SummaryLine[] = [];
  const candidates = num(summary.candidates);
  const fresh = num(summary.tasksNew);
  const changed = num(summary.tasksChanged);
  const same = num(summary.tasksUnchanged);
  if (fresh !== null || changed !== null || same !== null) {
    const parts = [`${formatInt(fresh ?? 0)} new`, `${formatInt(changed ?? 0)} changed`, `${formatInt(same ?? 0)} unchanged`];
    lines.push({ label: "tasks", value: candidates === null ? parts.join(" · ") : `${formatInt(candidates)}: ${parts.join(" · ")}` });
  } else if (candidates !== null) lines.push({ label: "tasks", value: formatInt(candidates) });
  const trials = num(summary.trialsNew);
  if (trials !== null) lines.push({ label: "trials", value: `${formatInt(trials)} new` });
  const files = num(summary.files);
  if (files !== null) lines.push({ label: "files", value: formatInt(files) });
  const blobs = num(summary.blobsNew);
  const bytes = num(summary.bytesNew);
  if (blobs !== null || bytes !== null) {
    lines.push({ label: "stored", value: [blobs !== null ? plural(blobs, "new blob") : null, bytes !== null ? formatBytes(bytes) : null].filter(Boolean).join(", ") });
  }
  const ms = num(summary.durationMs);
  if (ms !== null) lines.push({ label: "took", value: formatDuration(ms) });
  const checks = summary.checks;
  if (checks && typeof checks === "object" && !Array.isArray(checks)) {
    const counts = Object.values(checks).map(num).filter((n): n is number => n !== null);
    const total = counts.reduce((a, b) => a + b, 0);
    lines.push({ label: "checks", value: `${plural(total, "flag")} from ${plural(counts.filter((n) => n > 0).length, "rule")}` });
  }
  if (Array.isArray(summary.warnings)) lines.push({ label: "warnings", value: summary.warnings.length === 0 ? "none" : formatInt(summary.warnings.length) });
  for (const [key, v] of Object.entries(summary)) {
    if (SHOWN_ELSEWHERE.has(key) || KNOWN.has(key)) continue;
    if (typeof v === "number") lines.push({ label: key, value: formatInt(v) });
    else if (typeof v === "string" || typeof v === "boolean") lines.push({ label: key, value: String(v) });
  }
  return lines;
}
