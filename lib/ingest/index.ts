// Import entry point: detect the format, run it in one transaction, record the import.
import fs from "node:fs";
import path from "node:path";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { isEmbedded, type Db } from "@/db/client";
import { failInterruptedImports, finishImport, startImport } from "@/db/queries/imports";
import { RunWriter } from "@/db/queries/ingest";
import type { RunInput, WriteCounts } from "@/db/queries/ingest-rows";
import { analyzeAfterImport, vacuumAfterImport } from "@/db/queries/ingest-settings";
import { runs } from "@/db/schema";
import { recordAudit } from "@/db/queries/audit";
import { withRoundRollups } from "@/db/queries/rollups";
import { storeRunCounts } from "@/db/queries/runs";
import { IngestError, IssueList, type IngestIssue } from "./errors";
import { findTrialDirs, writeHarborTrials } from "./harbor-jobs";
import { isInterchangeFile, loneInterchangeFile, readInterchangeHeader, writeInterchangeRun } from "./interchange";
import { isNativeRun, readNativeHeader, writeNativeRun } from "./native";
import { findTaskDirs, writeTaskDirs } from "./task-dirs";
import { isReleaseDir, readReleaseHeader, writeReleaseRun } from "./release";
import { defaultReaderThreads, type ReadProgress } from "./native/read-run";
import { isDirectory } from "./walk";
import { unpackArchive } from "@/lib/upload/archive";
import { checkAfterImport, snapshotForChecks, type ChecksSnapshot } from "@/lib/checks/after-ingest";

export const INGEST_FORMATS = ["native", "harbor", "jsonl", "tasks", "release"] as const;
export type IngestFormat = (typeof INGEST_FORMATS)[number];

export interface IngestOptions {
  runName?: string;
  format?: IngestFormat;
  onProgress?: (p: ReadProgress) => void;
  /** What the imports list shows as the source (an upload's temporary directory means nothing). */
  sourceLabel?: string;
  /** the name a folder of tasks or a release takes without --run, when its directory's own name
   * means nothing (an archive unpacked into a scratch directory) */
  folderName?: string;
  /** Called once the import is recorded (its id is what a progress URL names). */
  onStart?: (importId: number) => void;
  /** reader threads (default: none below MIN_THREADED_CANDIDATES, else two per core, at most 8, one per core into embedded PGlite); 0 reads in the calling thread */
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
  /** findings per rule of the consistency checks run on the imported tasks and their neighbours */
  checks?: Record<string, number>;
}

export async function detectFormat(p: string): Promise<IngestFormat> {
  if (isInterchangeFile(p) && !(await isDirectory(p))) return "jsonl";
  if (!(await isDirectory(p))) throw new IngestError([{ file: p, message: "not a directory, a .jsonl file or a tar / tar.gz archive" }]);
  if (await isNativeRun(p)) return "native";
  if (isReleaseDir(p)) return "release";
  if (findTrialDirs(p)) return "harbor";
  if (findTaskDirs(p)) return "tasks";
  throw new IngestError([
    {
      file: p,
      message:
        "unrecognized layout: expected a native RST run (run.json + lineage.jsonl), the public RST release (metadata/tasks.parquet, data/tasks-*.tar), Harbor job or trial directories (result.json), Harbor or Terminal-Bench 1 task directories (instruction.md, task.toml or task.yaml), or a .jsonl file",
    },
  ]);
}

/** A tar or tar.gz file: a run, a release or a folder of tasks packed, as uploads are. */
export const isArchiveFile = (p: string): boolean => /\.(tar|tar\.gz|tgz)$/i.test(p);

export async function ingestPath(db: Db, inputPath: string, opts: IngestOptions = {}): Promise<IngestSummary> {
  if (isArchiveFile(inputPath) && !(await isDirectory(inputPath))) return ingestArchive(db, path.resolve(inputPath), opts);
  const dir = (await loneInterchangeFile(path.resolve(inputPath))) ?? path.resolve(inputPath);
  await failInterruptedImports(db);
  const format = opts.format ?? (await detectFormat(dir));
  if (format === "jsonl") return ingestInterchange(db, dir, opts);
  if (format === "tasks") return ingestTaskDirs(db, dir, opts);
  if (format === "release") return ingestRelease(db, dir, opts);
  return format === "harbor" ? ingestHarbor(db, dir, opts) : ingestNative(db, dir, opts);
}

/** Unpacked into a private scratch directory (lib/upload/archive: every entry judged before it is
 * written), imported, removed. */
async function ingestArchive(db: Db, file: string, opts: IngestOptions): Promise<IngestSummary> {
  let unpacked: Awaited<ReturnType<typeof unpackArchive>>;
  try {
    unpacked = await unpackArchive(fs.createReadStream(file));
  } catch (err) {
    throw new IngestError([{ file, message: (err as Error).message }]);
  }
  try {
    const stem = path.basename(file).replace(/\.(tar|tar\.gz|tgz)$/i, "");
    return await ingestPath(db, unpacked.dir, { ...opts, sourceLabel: opts.sourceLabel ?? file, folderName: unpacked.dir === unpacked.root ? stem : undefined });
  } finally {
    fs.rmSync(unpacked.root, { recursive: true, force: true });
  }
}

interface Written {
  runId: number;
  counts: WriteCounts;
  unchanged: boolean;
}

/**
 * One import, recorded: the imports row (running → done/unchanged/failed), one transaction for
 * the writes, and the audit row inside it, so a rolled-back import leaves no audit entry.
 */
async function recordedImport(
  db: Db,
  job: { runName: string; format: IngestFormat; dir: string; candidates: number; opts: IngestOptions; warnings: IssueList },
  write: (tx: Db) => Promise<Written>,
): Promise<IngestSummary> {
  const { runName, format, dir, opts } = job;
  const started = Date.now();
  // What the run held before, so that the checks afterwards see only what this import changed.
  const before: ChecksSnapshot | undefined = await snapshotForChecks(db, runName).catch(() => undefined);
  const importId = await startImport(db, { runName, format, sourcePath: opts.sourceLabel ?? dir });
  opts.onStart?.(importId);
  try {
    const result = await db.transaction(async (tx) => {
      const written = await withRoundRollups(tx, () => write(tx));
      await storeRunCounts(tx, written.runId);
      await recordAudit(tx, {
        actorId: opts.actor?.id ?? null,
        actorLabel: opts.actor?.label ?? CLI_ACTOR.label,
        action: "ingest",
        targetType: "run",
        targetId: runName,
        details: { import_id: importId, format, source: dir, ...written.counts, unchanged: written.unchanged, warnings: job.warnings.size },
      });
      return written;
    });
    // Autovacuum may be off or late: without it the visibility map stays empty after a bulk
    // insert and the round statistics cannot read their covering index alone (docs/benchmarks.md).
    // It runs beside the checks (on another connection; PGlite takes the two in turn), which
    // wait only for the other tables' statistics.
    let vacuum: Promise<void> = Promise.resolve();
    if (!result.unchanged) {
      await analyzeAfterImport(db).catch((err: Error) => job.warnings.add(dir, `ANALYZE after import failed: ${err.message}`));
      vacuum = vacuumAfterImport(db).catch((err: Error) => job.warnings.add(dir, `VACUUM after import failed: ${err.message}`));
    }
    // The consistency checks of the new and changed tasks: a failure is a warning, not a lost import.
    let checks: Record<string, number> | undefined;
    if (!result.unchanged && before !== undefined) {
      try {
        checks = (await checkAfterImport(db, result.runId, before, opts.actor))?.counts;
      } catch (err) {
        job.warnings.add(dir, `consistency checks after import failed: ${(err as Error).message}`);
      }
    }
    await vacuum;
    const summary: IngestSummary = {
      importId,
      run: runName,
      runId: result.runId,
      format,
      candidates: job.candidates,
      durationMs: Date.now() - started,
      unchanged: result.unchanged,
      warnings: job.warnings.items,
      ...result.counts,
      ...(checks ? { checks } : {}),
    };
    await finishImport(db, importId, { status: result.unchanged ? "unchanged" : "done", runId: result.runId, summary: { ...summary } });
    return summary;
  } catch (err) {
    await finishImport(db, importId, { status: "failed", error: (err as Error).message.slice(0, 10_000) });
    throw err;
  }
}

async function ingestNative(db: Db, dir: string, opts: IngestOptions): Promise<IngestSummary> {
  const issues = new IssueList();
  const warnings = new IssueList();
  const header = await readNativeHeader(dir, issues, opts.runName);
  if (!header) throw new IngestError(issues.items);
  const run = { name: header.name, format: "native" as const, sourcePath: opts.sourceLabel ?? dir, meta: header.meta, createdAt: header.createdAt };
  return importIntoRun(db, { run, dir, candidates: header.total, opts, issues, warnings }, (writer, threads) =>
    writeNativeRun(dir, header, writer, issues, warnings, { onProgress: opts.onProgress, threads }),
  );
}

/**
 * One recorded import of tasks (and their trials) into `run`: the run opened or created, `write`
 * given the writer and the number of reader threads, the transaction rolled back on any issue.
 */
async function importIntoRun(
  db: Db,
  job: { run: RunInput & { format: IngestFormat }; dir: string; candidates: number; opts: IngestOptions; issues: IssueList; warnings: IssueList },
  write: (writer: RunWriter, threads: number) => Promise<void>,
): Promise<IngestSummary> {
  const { run, dir, candidates, opts, issues, warnings } = job;
  const threads = opts.threads ?? defaultReaderThreads({ embeddedDatabase: isEmbedded(db), candidates });
  return recordedImport(db, { runName: run.name, format: run.format, dir, candidates, opts, warnings }, async (tx) => {
    const writer = await RunWriter.open(tx, run, candidates);
    await whileWriting(writer, () => write(writer, threads));
    issues.throwIfAny();
    const c = writer.counts;
    return { runId: writer.runId, counts: { ...c }, unchanged: writer.runExisted && c.tasksNew === 0 && c.tasksChanged === 0 && c.trialsNew === 0 };
  });
}

/** Runs `write`; however it ends, the batch the writer is writing is waited for, so nothing uses
 * the transaction after it commits or rolls back. (A good write has waited for it already and
 * met its error, if any.) */
async function whileWriting<T>(writer: RunWriter, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    await writer.settled().catch(() => undefined);
  }
}

/** A JSONL interchange file (FORMATS.md §6): tasks with their files, no trials. An existing run
 * keeps its meta (a file adding tasks to a run imported from its directory). */
async function ingestInterchange(db: Db, file: string, opts: IngestOptions): Promise<IngestSummary> {
  const issues = new IssueList();
  const warnings = new IssueList(1000);
  const header = await readInterchangeHeader(file, issues, opts.runName);
  if (!header) throw new IngestError(issues.items);
  const run = { name: header.name, format: "jsonl" as const, sourcePath: opts.sourceLabel ?? file, meta: header.meta, createdAt: null, keepMeta: true };
  return importIntoRun(db, { run, dir: file, candidates: header.total, opts, issues, warnings }, (writer, threads) =>
    writeInterchangeRun(file, header, writer, issues, warnings, { onProgress: opts.onProgress, runNamed: opts.runName !== undefined, threads }),
  );
}

/** Harbor task directories (FORMATS.md §1): a folder of tasks (into `--run`, default the folder's
 * name), or one task (into `--run`). No lineage, no trials. */
async function ingestTaskDirs(db: Db, dir: string, opts: IngestOptions): Promise<IngestSummary> {
  const found = findTaskDirs(dir);
  if (!found) throw new IngestError([{ file: dir, message: "no task directories (instruction.md, task.toml or task.yaml) here" }]);
  const single = found.tasks.length === 1 && found.tasks[0]?.dir === dir;
  if (single && opts.runName === undefined) throw new IngestError([{ file: dir, message: "a single task needs --run NAME, the run it joins" }]);
  const name = opts.runName ?? opts.folderName ?? path.basename(dir);
  const issues = new IssueList();
  const warnings = new IssueList(1000);
  const run = { name, format: "tasks" as const, sourcePath: opts.sourceLabel ?? dir, meta: { name, format: "tasks" }, createdAt: null, keepMeta: true };
  return importIntoRun(db, { run, dir, candidates: found.tasks.length, opts, issues, warnings }, (writer, threads) =>
    writeTaskDirs(dir, found, writer, issues, warnings, { onProgress: opts.onProgress, threads }),
  );
}

/** The public RST release (FORMATS.md §5): its shards streamed into `--run` (default the folder's
 * name), every task a root; the lineage is inferred afterwards. */
async function ingestRelease(db: Db, dir: string, opts: IngestOptions): Promise<IngestSummary> {
  const issues = new IssueList();
  const warnings = new IssueList(1000);
  const header = await readReleaseHeader(dir, issues, warnings, opts.runName ?? opts.folderName);
  if (!header) throw new IngestError(issues.items);
  const run = { name: header.name, format: "release" as const, sourcePath: opts.sourceLabel ?? dir, meta: header.meta, createdAt: null, keepMeta: true };
  return importIntoRun(db, { run, dir, candidates: header.total, opts, issues, warnings }, (writer, threads) =>
    writeReleaseRun(dir, header, writer, issues, warnings, { onProgress: opts.onProgress, threads }),
  );
}

/** Trials for a run already imported: `--run`, or the only run there is. */
async function ingestHarbor(db: Db, dir: string, opts: IngestOptions): Promise<IngestSummary> {
  const refs = findTrialDirs(dir);
  if (!refs) throw new IngestError([{ file: dir, message: "no Harbor job or trial directories (result.json) here" }]);
  const run = await targetRun(db, dir, opts.runName);
  const warnings = new IssueList(1000);
  return recordedImport(db, { runName: run.name, format: "harbor", dir, candidates: refs.length, opts, warnings }, async (tx) => {
    const writer = await RunWriter.attach(tx, run.id);
    await whileWriting(writer, () => writeHarborTrials(tx, dir, refs, writer, warnings, opts.onProgress));
    return { runId: run.id, counts: { ...writer.counts }, unchanged: writer.counts.trialsNew === 0 };
  });
}

async function targetRun(db: Db, dir: string, name: string | undefined): Promise<{ id: number; name: string }> {
  const all = await db.select({ id: runs.id, name: runs.name }).from(runs).orderBy(runs.name);
  if (name !== undefined) {
    const found = all.find((r) => r.name === name);
    if (!found) throw new IngestError([{ file: dir, message: `no run named ${name}; import the run before its trials` }]);
    return found;
  }
  const [only, ...more] = all;
  if (only && more.length === 0) return only;
  throw new IngestError([
    { file: dir, message: only ? `trials need a run: pass --run (one of ${all.map((r) => r.name).join(", ")})` : "trials need a run: import the run first" },
  ]);
}
