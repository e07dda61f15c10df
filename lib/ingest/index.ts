// Import entry point: detect the format, run it in one transaction, record the import.
import path from "node:path";
import { CLI_ACTOR } from "@/lib/auth/actor";
import type { Db } from "@/db/client";
import { failInterruptedImports, finishImport, startImport } from "@/db/queries/imports";
import { RunWriter, type WriteCounts } from "@/db/queries/ingest";
import { recordAudit } from "@/db/queries/audit";
import { IngestError, IssueList, type IngestIssue } from "./errors";
import { isNativeRun, readNativeHeader, writeNativeRun } from "./native";
import type { ReadProgress } from "./native/read-run";
import { isDirectory } from "./walk";

export const INGEST_FORMATS = ["native"] as const;
export type IngestFormat = (typeof INGEST_FORMATS)[number];

export interface IngestOptions {
  runName?: string;
  format?: IngestFormat;
  onProgress?: (p: ReadProgress) => void;
  /** What the imports list shows as the source (an upload's temporary directory means nothing). */
  sourceLabel?: string;
  /** Called once the import is recorded (its id is what a progress URL names). */
  onStart?: (importId: number) => void;
  /** reader threads (default: one per core); 0 reads in the calling thread */
  threads?: number;
  actor?: { id: string | null; label: string };
}

export interface IngestSummary extends WriteCounts {
  importId: number;
  run: string;
  runId: number;
  format: IngestFormat;
  candidates: number;
  durationMs: number;
  unchanged: boolean;
  /** problems that did not stop the import (malformed trials, trials of unknown tasks) */
  warnings: IngestIssue[];
}

export async function detectFormat(p: string): Promise<IngestFormat> {
  if (!(await isDirectory(p))) throw new IngestError([{ file: p, message: "not a directory (archives and JSONL arrive with a later release)" }]);
  if (await isNativeRun(p)) return "native";
  throw new IngestError([{ file: p, message: "unrecognized layout: expected a native RST run (run.json + lineage.jsonl)" }]);
}

export async function ingestPath(db: Db, inputPath: string, opts: IngestOptions = {}): Promise<IngestSummary> {
  const dir = path.resolve(inputPath);
  const started = Date.now();
  await failInterruptedImports(db);
  const format = opts.format ?? (await detectFormat(dir));
  const issues = new IssueList();
  const warnings = new IssueList();
  const header = await readNativeHeader(dir, issues, opts.runName);
  if (!header) throw new IngestError(issues.items);
  const importId = await startImport(db, { runName: header.name, format, sourcePath: opts.sourceLabel ?? dir });
  opts.onStart?.(importId);
  try {
    const result = await db.transaction(async (tx) => {
      const writer = await RunWriter.open(tx, { name: header.name, format, sourcePath: opts.sourceLabel ?? dir, meta: header.meta, createdAt: header.createdAt });
      await writeNativeRun(dir, header, writer, issues, warnings, { onProgress: opts.onProgress, threads: opts.threads });
      issues.throwIfAny();
      const c = writer.counts;
      const unchanged = writer.runExisted && c.tasksNew === 0 && c.tasksChanged === 0 && c.trialsNew === 0;
      await recordAudit(tx, {
        actorId: opts.actor?.id ?? null,
        actorLabel: opts.actor?.label ?? CLI_ACTOR.label,
        action: "ingest",
        targetType: "run",
        targetId: header.name,
        details: { import_id: importId, format, source: dir, ...c, unchanged },
      });
      return { runId: writer.runId, counts: { ...c }, unchanged };
    });
    const summary: IngestSummary = {
      importId,
      run: header.name,
      runId: result.runId,
      format,
      candidates: header.total,
      durationMs: Date.now() - started,
      unchanged: result.unchanged,
      warnings: warnings.items,
      ...result.counts,
    };
    await finishImport(db, importId, { status: result.unchanged ? "unchanged" : "done", runId: result.runId, summary: { ...summary } });
    return summary;
  } catch (err) {
    await finishImport(db, importId, { status: "failed", error: (err as Error).message.slice(0, 10_000) });
    throw err;
  }
}
