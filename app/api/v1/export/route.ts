import { Readable } from "node:stream";
import { canonicalFilter } from "@/lib/api/bulk-schemas";
import { apiError } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { startExport } from "@/lib/data/export";
import { EXPORT_FORMATS, exportName, type ExportFormat } from "@/lib/export/write";

export const dynamic = "force-dynamic";

const CONTENT_TYPES: Record<ExportFormat, string> = { harbor: "application/gzip", jsonl: "application/x-ndjson; charset=utf-8" };
const EXTENSIONS: Record<ExportFormat, string> = { harbor: "tar.gz", jsonl: "jsonl" };

/**
 * The tasks a task-table filter matches (the table's query keys; page keys are ignored), streamed
 * as Harbor task directories (`format=harbor`, a tar.gz with manifest.json) or JSONL. An unknown
 * key is an error, never dropped: it would widen the export.
 */
export const GET = route("export", async ({ actor, req }) => {
  const params = new URL(req.url).searchParams;
  const format = params.get("format") ?? "harbor";
  params.delete("format");
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return apiError(400, "bad_format", `format must be one of ${EXPORT_FORMATS.join(", ")}`);
  const canonical = canonicalFilter(params.toString());
  if (!canonical.ok) return apiError(400, "bad_filter", canonical.message, canonical.details);
  const f = format as ExportFormat;
  const started = await startExport(actor, { filter: canonical.filter, search: canonical.search, format: f });
  const body = Readable.toWeb(Readable.from(started.body)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "content-type": CONTENT_TYPES[f],
      "content-disposition": `attachment; filename="${exportName(started.createdAt)}.${EXTENSIONS[f]}"`,
      "cache-control": "no-store",
      "x-export-count": String(started.count),
    },
  });
}, { sameSiteOnly: true });
