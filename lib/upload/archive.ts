// An uploaded run archive (tar, optionally gzipped) unpacked into a fresh private directory that
// the importer then reads like any run directory (a JSONL upload is saved there as one file). Entries are streamed and judged by their header
// before a byte is written: regular files and directories only; a name must be a plain relative
// path (no `..`, no absolute path, no backslash, no NUL); counts and sizes are capped. Nothing is
// ever created but what we create ourselves — no links — so no entry can reach outside the
// directory, and the first bad entry discards the whole directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";

export interface ArchiveLimits {
  maxEntries: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  maxDepth: number;
}

export const DEFAULT_LIMITS: ArchiveLimits = { maxEntries: 5_000_000, maxFileBytes: 200 * 2 ** 20, maxTotalBytes: 20 * 2 ** 30, maxDepth: 16 };

/** A refused archive: `entry` names the offending member when there is one. */
export class ArchiveError extends Error {
  constructor(
    message: string,
    readonly entry?: string,
  ) {
    super(entry === undefined ? message : `${entry}: ${message}`);
    this.name = "ArchiveError";
  }
}

/** The entry's path as safe components, or an error saying what is wrong with it. */
export function safeEntryPath(name: string, maxDepth: number): string[] {
  if (name.includes("\0")) throw new ArchiveError("the name contains a NUL byte", JSON.stringify(name));
  if (name.includes("\\")) throw new ArchiveError("backslashes are not allowed in names", name);
  if (name.startsWith("/")) throw new ArchiveError("absolute paths are not allowed", name);
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..")) throw new ArchiveError("`..` is not allowed in names", name);
  if (parts.some((p) => Buffer.byteLength(p) > 255)) throw new ArchiveError("a path component is longer than 255 bytes", name);
  if (parts.length > maxDepth) throw new ArchiveError(`deeper than ${maxDepth} levels`, name);
  return parts;
}

const GZIP_MAGIC = [0x1f, 0x8b];
const SNIFF_BYTES = 512;
/** A JSONL body: an optional byte order mark and blank space, then an object. (A tar whose first
 * member is named `{…` would be taken for JSONL, and refused as invalid JSON, never misread.) */
const JSONL_START = /^(?:\xEF\xBB\xBF)?[ \t\r\n]*\{/;

/** Writes `body` to a new file, refusing to go past `max` bytes; returns the size. */
async function saveCapped(body: Readable, file: string, max: number): Promise<number> {
  let size = 0;
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > max) throw new ArchiveError(`the upload is larger than ${max} bytes`);
      fs.writeSync(fd, chunk as Buffer);
    }
  } finally {
    fs.closeSync(fd);
  }
  return size;
}

/**
 * Unpacks `body` into a new directory and returns it; the caller removes it when done. When the
 * archive holds a single top-level directory (`run/…`), that directory is returned.
 */
export async function unpackArchive(body: ReadableStream<Uint8Array> | Readable, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<{ dir: string; root: string; files: number; bytes: number }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "rst-upload-"));
  let entries = 0;
  let files = 0;
  let bytes = 0;
  const source = body instanceof Readable ? body : Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  // Sniff the first bytes: gzip, plain tar, or JSONL (FORMATS.md §6: a line starts with `{`).
  const iterator = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let ended = false;
  try {
    // At least a tar header's worth (or all there is), whatever size the first chunks have.
    while (head.length < SNIFF_BYTES && !ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
      else head = Buffer.concat([head, Buffer.from(next.value as Uint8Array)]);
    }
  } catch (err) {
    fs.rmSync(root, { recursive: true, force: true });
    throw new ArchiveError(`the upload could not be read (${(err as Error).message})`);
  }
  const rest = Readable.from(
    (async function* () {
      if (head.length) yield head;
      if (ended) return;
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) yield Buffer.from(r.value as Uint8Array);
    })(),
  );
  if (JSONL_START.test(head.toString("latin1"))) {
    try {
      return { dir: root, root, files: 1, bytes: await saveCapped(rest, path.join(root, "upload.jsonl"), limits.maxTotalBytes) };
    } catch (err) {
      fs.rmSync(root, { recursive: true, force: true });
      throw err instanceof ArchiveError ? err : new ArchiveError(`the JSONL upload could not be saved (${(err as Error).message})`);
    }
  }
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const h = entry.header;
      // A corrupt gzip surfaces as an error on the entry stream; without a handler it crashes Node.
      entry.on("error", () => undefined);
      entries++;
      if (entries > limits.maxEntries) throw new ArchiveError(`more than ${limits.maxEntries} entries`);
      const parts = safeEntryPath(h.name, limits.maxDepth);
      const target = path.join(root, ...parts);
      if (h.type === "directory") {
        if (parts.length > 0) fs.mkdirSync(target, { recursive: true, mode: 0o700 });
        entry.resume();
        continue;
      }
      if (h.type !== "file" && h.type !== "contiguous-file") throw new ArchiveError(`${h.type ?? "unknown"} entries are not accepted (regular files and directories only)`, h.name);
      if (parts.length === 0) throw new ArchiveError("a file without a name", h.name);
      const size = h.size ?? 0;
      if (size > limits.maxFileBytes) throw new ArchiveError(`larger than ${limits.maxFileBytes} bytes`, h.name);
      if (bytes + size > limits.maxTotalBytes) throw new ArchiveError(`the archive inflates to more than ${limits.maxTotalBytes} bytes`);
      bytes += size;
      files++;
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      // O_EXCL: a second entry with the same name is refused, never written over the first.
      let fd: number;
      try {
        fd = fs.openSync(target, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
      } catch (err) {
        throw new ArchiveError((err as NodeJS.ErrnoException).code === "EEXIST" ? "the archive holds this name twice" : (err as Error).message, h.name);
      }
      try {
        for await (const chunk of entry) fs.writeSync(fd, chunk as Buffer);
      } finally {
        fs.closeSync(fd);
      }
    }
  })();
  try {
    const gz = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
    // Our verdict on an entry wins over the stream error it causes (stopping the reader closes it).
    const [piped, judged] = await Promise.allSettled([gz ? pipeline(rest, createGunzip(), extract) : pipeline(rest, extract), done]);
    if (judged.status === "rejected") throw judged.reason;
    if (piped.status === "rejected") throw piped.reason;
    if (files === 0) throw new ArchiveError("the archive holds no files");
  } catch (err) {
    extract.destroy();
    fs.rmSync(root, { recursive: true, force: true });
    if (err instanceof ArchiveError) throw err;
    throw new ArchiveError(`not a readable tar or tar.gz archive (${(err as Error).message})`);
  }
  const top = fs.readdirSync(root, { withFileTypes: true });
  const dir = top.length === 1 && top[0]?.isDirectory() ? path.join(root, top[0].name) : root;
  return { dir, root, files, bytes };
}
