// The data layer for imports through the API: an uploaded archive is unpacked (lib/upload), then
// imported in the background; the answer names the import, whose progress is polled.
import fs from "node:fs";
import type { Readable } from "node:stream";
import { getDb } from "@/db/client";
import { getImport as readImport } from "@/db/queries/runs";
import { authorize, type Actor } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { IngestError } from "@/lib/ingest/errors";
import { unpackArchive } from "@/lib/upload/archive";

/** Progress of the imports this process is running (the database has the rest). */
const progress = new Map<number, { done: number; total: number }>();

export type StartedImport = { ok: true; importId: number } | { ok: false; error: IngestError };

/**
 * Unpacks the archive, starts importing it and answers once the import is recorded (or refused
 * before that: an unreadable header). The unpacked files are removed when the import ends.
 */
export async function startUploadedImport(actor: Actor | null, body: ReadableStream<Uint8Array> | Readable, opts: { runName?: string; label: string }): Promise<StartedImport> {
  const who = authorize(actor, "ingest");
  const db = await getDb();
  const unpacked = await unpackArchive(body);
  let started: (id: number) => void = () => undefined;
  let importId: number | null = null;
  const recorded = new Promise<number>((resolve) => (started = resolve));
  // Reader threads are for the CLI: inside the server the import reads in this thread.
  const running = ingestPath(db, unpacked.dir, {
    runName: opts.runName,
    // Files packed at the archive's top level: without ?run= a folder of tasks or a release is
    // named "upload", not after the scratch directory.
    folderName: unpacked.dir === unpacked.root ? "upload" : undefined,
    threads: 0,
    sourceLabel: opts.label,
    actor: { id: who.userId, label: who.label },
    onStart: (id) => {
      importId = id;
      progress.set(id, { done: 0, total: 0 });
      started(id);
    },
    onProgress: (p) => {
      if (importId !== null) progress.set(importId, { done: p.done, total: p.total });
    },
  });
  const finished = running
    .then(() => null)
    .catch((err: unknown) => err)
    .finally(() => fs.rmSync(unpacked.root, { recursive: true, force: true }));
  const first = await Promise.race([recorded.then((id) => ({ id })), finished.then((err) => ({ err }))]);
  if ("id" in first) {
    void finished.then(() => progress.delete(first.id));
    return { ok: true, importId: first.id };
  }
  if (first.err instanceof IngestError) return { ok: false, error: first.err };
  if (first.err) throw first.err;
  // Finished before it was recorded cannot happen (the record comes first); answer honestly anyway.
  throw new Error("the import ended before it was recorded");
}

export async function getImportStatus(actor: Actor | null, id: number) {
  authorize(actor, "ingest");
  const row = await readImport(await getDb(), id);
  return row ? { ...row, progress: progress.get(id) ?? null } : null;
}
