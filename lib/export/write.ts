// An export as a stream of bytes: Harbor task directories in a gzipped tar with `manifest.json`
// last, or JSONL (FORMATS.md §6). Tasks arrive in batches and leave as they arrive; the manifest
// grows in a temporary file, so neither the tasks nor the manifest are ever held whole in memory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream";
import { createGzip } from "node:zlib";
import tar, { type Header, type Pack } from "tar-stream";
import { storedBytes } from "@/lib/ingest/content";
import { safeEntryPath } from "@/lib/upload/archive";
import { jsonlLine, manifestTask, type ExportFileContent, type ExportTask } from "./record";

export const EXPORT_FORMATS = ["harbor", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Tasks per database round trip: ≈ 30 files of ≈ 1–10 kB each, so a batch is a few MB. */
export const EXPORT_BATCH = 100;

export interface ExportSource {
  /** The matching tasks' ids, in export order, fixed when the export starts. */
  ids: readonly number[];
  batch(ids: number[]): Promise<{ task: ExportTask; files: ExportFileContent[] }[]>;
}

export interface ExportHeader {
  format: ExportFormat;
  /** The canonical task-table query string the tasks were chosen by. */
  filter: string;
  createdAt: Date;
}

export interface ExportSummary {
  tasks: number;
  files: number;
  bytes: number;
}

/** The export's directory in the archive, from its date: `rst-export-20261204T130501Z`. */
export function exportName(createdAt: Date): string {
  return `rst-export-${createdAt.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}`;
}

/** A run name as one directory name: anything but letters, digits, dot, dash and underscore becomes `_`. */
export function runDirName(run: string): string {
  const name = run.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120);
  return name === "" || name === "." || name === ".." ? `run_${name.length}` : name;
}

async function* batches(source: ExportSource) {
  for (let i = 0; i < source.ids.length; i += EXPORT_BATCH) yield* await source.batch(source.ids.slice(i, i + EXPORT_BATCH));
}

/**
 * The manifest, written as the tasks pass: `{format, version, layout, created_at, filter, tasks:
 * [...], count, files, bytes}`. `finish` closes it and answers its path; `discard` removes it.
 */
class ManifestFile {
  readonly path: string;
  private readonly out: fs.WriteStream;
  private first = true;
  private error: Error | null = null;

  constructor(header: ExportHeader) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-export-"));
    this.path = path.join(dir, "manifest.json");
    // Opened now, not on the stream's first tick: `discard` may remove the directory at any time.
    this.out = fs.createWriteStream("", { fd: fs.openSync(this.path, "wx", 0o600) });
    this.out.on("error", (err) => {
      this.error ??= err;
    });
    const head = { format: "rst-curator-export", version: 1, layout: header.format, created_at: header.createdAt.toISOString(), filter: header.filter };
    this.out.write(`${JSON.stringify(head).slice(0, -1)},"tasks":[`);
  }

  async add(task: ExportTask, files: readonly ExportFileContent[]): Promise<void> {
    if (this.error) throw this.error;
    const ok = this.out.write(`${this.first ? "\n" : ",\n"}${JSON.stringify(manifestTask(task, files))}`);
    this.first = false;
    if (!ok) await once(this.out, "drain");
  }

  async finish(summary: ExportSummary): Promise<string> {
    if (this.error) throw this.error;
    this.out.end(`\n],"count":${summary.tasks},"files":${summary.files},"bytes":${summary.bytes}}\n`);
    await once(this.out, "finish");
    return this.path;
  }

  discard(): void {
    this.out.destroy();
    fs.rmSync(path.dirname(this.path), { recursive: true, force: true });
  }
}

/** Where an export's manifest ends up besides the stream (the CLI writes it next to the export). */
export type ManifestSink = (manifestPath: string, summary: ExportSummary) => Promise<void>;

function entry(pack: Pack, header: Partial<Header> & Pick<Header, "name">, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    // The entry's own stream reports a destroyed pack as an error too; the callback carries it.
    pack.entry(header, body, (err) => (err ? reject(err) : resolve())).on("error", () => {});
  });
}

/**
 * Harbor task directories, `<export>/<run>/<task_id>/<path>`, then `<export>/manifest.json`, as a
 * gzipped tar. Shell scripts get mode 755 (the import keeps bytes, not modes), the rest 644.
 */
export function harborArchive(source: ExportSource, header: ExportHeader, sink?: ManifestSink): AsyncIterable<Buffer> {
  const pack = tar.pack();
  const root = exportName(header.createdAt);
  const mtime = header.createdAt;
  const produce = async () => {
    const manifest = new ManifestFile(header);
    try {
      const summary: ExportSummary = { tasks: 0, files: 0, bytes: 0 };
      for await (const { task, files } of batches(source)) {
        const dir = `${root}/${runDirName(task.run)}/${safeEntryPath(task.extId, 1).join("/")}`;
        for (const f of files) {
          const name = `${dir}/${safeEntryPath(f.path, 32).join("/")}`;
          await entry(pack, { name, mode: f.path.endsWith(".sh") ? 0o755 : 0o644, mtime }, storedBytes(f));
          summary.files += 1;
          summary.bytes += f.size;
        }
        summary.tasks += 1;
        await manifest.add(task, files);
      }
      const manifestPath = await manifest.finish(summary);
      await entry(pack, { name: `${root}/manifest.json`, mode: 0o644, mtime }, fs.readFileSync(manifestPath));
      await sink?.(manifestPath, summary);
      pack.finalize();
    } catch (err) {
      pack.destroy(err instanceof Error ? err : new Error(String(err)));
    } finally {
      manifest.discard();
    }
  };
  void produce();
  // pipeline: a reader that goes away (a closed download) destroys the pack, and so the producer.
  return pipeline(pack, createGzip(), () => {});
}

/** One line per task (FORMATS.md §6), each with the SHA-256 of its files. */
export async function* jsonlExport(source: ExportSource, header: ExportHeader, sink?: ManifestSink): AsyncGenerator<Buffer> {
  const manifest = new ManifestFile(header);
  try {
    const summary: ExportSummary = { tasks: 0, files: 0, bytes: 0 };
    for await (const { task, files } of batches(source)) {
      yield Buffer.from(`${jsonlLine(task, files)}\n`);
      await manifest.add(task, files);
      summary.tasks += 1;
      summary.files += files.length;
      summary.bytes += files.reduce((n, f) => n + f.size, 0);
    }
    const manifestPath = await manifest.finish(summary);
    await sink?.(manifestPath, summary);
  } finally {
    manifest.discard();
  }
}

export function exportStream(source: ExportSource, header: ExportHeader, sink?: ManifestSink): AsyncIterable<Buffer> {
  return header.format === "harbor" ? harborArchive(source, header, sink) : jsonlExport(source, header, sink);
}
