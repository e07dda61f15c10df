// The data layer for exports: admins only (API.md), every export written to the audit log with
// its filter and count before the first byte leaves.
import { getDb, type Db } from "@/db/client";
import * as q from "@/db/queries/export";
import { authorize, type Actor } from "@/lib/auth/actor";
import { exportStream, type ExportFormat, type ManifestSink } from "@/lib/export/write";
import type { TaskFilter } from "@/lib/tasks/filter";

export interface StartedExport {
  count: number;
  createdAt: Date;
  body: AsyncIterable<Buffer>;
}

export interface ExportRequest {
  filter: TaskFilter;
  /** The filter's canonical query string (lib/api/bulk-schemas.ts canonicalFilter). */
  search: string;
  format: ExportFormat;
}

/** Fixes the set of tasks `filter` matches now and answers their export as a stream. */
export async function startExport(actor: Actor | null, input: ExportRequest, sink?: ManifestSink): Promise<StartedExport> {
  return exportFrom(await getDb(), actor, input, sink);
}

/** The same on a database the caller opened (the CLI). */
export async function exportFrom(db: Db, actor: Actor | null, input: ExportRequest, sink?: ManifestSink): Promise<StartedExport> {
  const admin = authorize(actor, "export");
  const createdAt = new Date();
  const ids = await q.startExport(db, input.filter, { actor: admin, search: input.search, format: input.format });
  const source = { ids, batch: (batch: number[]) => q.exportBatch(db, batch) };
  return { count: ids.length, createdAt, body: exportStream(source, { format: input.format, filter: input.search, createdAt }, sink) };
}
