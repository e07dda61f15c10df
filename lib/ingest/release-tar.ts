// The tasks of one shard of the public RST release (FORMATS.md §5), read as a stream: never
// extracted to disk, every entry judged by its header before its bytes are read, the shard's
// SHA-256 and size computed on the way through (checked against the manifest by the caller).
// A shard holds `tasks/<id>/…` Harbor task trees; a task's entries are expected together.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { PassThrough, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { ArchiveError, safeEntryPath } from "@/lib/upload/archive";
import type { IssueList } from "./errors";
import { byParts } from "./interchange-files";
import { MAX_FILE_BYTES, MAX_FILES_PER_DIR_TREE, type TreeFile } from "./walk";

const MAX_DEPTH = 34;

export interface ShardTask {
  id: string;
  files: TreeFile[];
}

export interface ShardDigest {
  sha256: string;
  size: number;
}

/** The task id and the path inside the task of an entry name (`tasks/<id>/<rel>`, or `<id>/<rel>`
 * when a shard has no `tasks/` level), or null for the directories above the tasks. */
export function splitMember(parts: string[]): { id: string; rel: string } | null {
  const rest = parts[0] === "tasks" ? parts.slice(1) : parts;
  if (rest.length < 2) return null;
  return { id: rest[0] as string, rel: rest.slice(1).join("/") };
}

/**
 * Yields the shard's tasks in the order they appear, each with its files sorted the way a directory
 * walk lists them; problems (links, oversized files, a task whose entries are split apart, a corrupt
 * archive) are issues naming the shard and the entry. Returns the shard's digest, or null when it
 * could not be read to the end.
 */
export async function* readShardTasks(file: string, display: string, issues: IssueList): AsyncGenerator<ShardTask, ShardDigest | null> {
  const hash = createHash("sha256");
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const gzipped = /\.(tar\.gz|tgz)$/.test(file);
  const extract = tar.extract();
  const piped = pipeline(fs.createReadStream(file), counter, gzipped ? createGunzip() : new PassThrough(), extract);
  // Our verdict on an entry wins over the stream error that stopping the reader causes.
  piped.catch(() => undefined);
  const done = new Set<string>();
  let current: ShardTask | null = null;
  let complete = true;
  const bad = (entry: string, message: string) => issues.add(display, `${entry}: ${message}`);
  try {
    for await (const entry of extract) {
      // A corrupt gzip surfaces as an error on the entry stream; without a handler it crashes Node.
      entry.on("error", () => undefined);
      const h = entry.header;
      let parts: string[];
      try {
        parts = safeEntryPath(h.name, MAX_DEPTH);
      } catch (err) {
        bad(JSON.stringify(h.name), err instanceof ArchiveError ? err.message.replace(/^.*?: /, "") : (err as Error).message);
        entry.resume();
        continue;
      }
      const member = splitMember(parts);
      if (h.type === "directory" || (member === null && h.type !== "file")) {
        entry.resume();
        continue;
      }
      if (member === null) {
        bad(h.name, "a file outside any task directory (expected tasks/<id>/…), not imported");
        entry.resume();
        continue;
      }
      if (h.type !== "file" && h.type !== "contiguous-file") {
        bad(h.name, h.type === "symlink" || h.type === "link" ? "links are not imported" : `${h.type ?? "unknown"} entries are not imported (regular files only)`);
        entry.resume();
        continue;
      }
      if (current === null || current.id !== member.id) {
        if (current !== null && !done.has(current.id)) {
          done.add(current.id);
          yield finish(current, display, issues);
        }
        // The task's later entries are read (to report every problem) but not yielded again.
        if (done.has(member.id)) bad(h.name, `task ${member.id} appears again after other tasks: its entries must be together`);
        current = { id: member.id, files: [] };
      }
      const bytes = h.size ?? 0;
      if (bytes > MAX_FILE_BYTES) {
        bad(h.name, `file is ${bytes} bytes, over the ${MAX_FILE_BYTES}-byte limit`);
        entry.resume();
        continue;
      }
      current.files.push({ rel: member.rel, bytes: await ownBytes(entry, bytes) });
    }
    await piped;
  } catch (err) {
    complete = false;
    issues.add(display, `not a readable ${gzipped ? "tar.gz" : "tar"} archive (${(err as Error).message})`);
  } finally {
    extract.destroy();
  }
  if (current !== null && !done.has(current.id)) yield finish(current, display, issues);
  return complete ? { sha256: hash.digest("hex"), size } : null;
}

/**
 * The entry's bytes in a buffer of their own: a reader thread receives a copy of a buffer's whole
 * backing store, and the stream's chunks (or a small Buffer.concat) are views of larger ones.
 */
async function ownBytes(entry: AsyncIterable<unknown>, size: number): Promise<Buffer> {
  const out = Buffer.allocUnsafeSlow(size);
  let filled = 0;
  for await (const chunk of entry) {
    const c = chunk as Buffer;
    if (filled + c.length > size) throw new Error("an entry is longer than its header says");
    c.copy(out, filled);
    filled += c.length;
  }
  return filled === size ? out : out.subarray(0, filled);
}

/** The task's files in walk order; a name twice or too many files is an issue. */
function finish(task: ShardTask, display: string, issues: IssueList): ShardTask {
  const files = [...task.files].sort(byParts);
  for (let i = 1; i < files.length; i++) {
    if (files[i]?.rel === files[i - 1]?.rel) issues.add(display, `tasks/${task.id}/${files[i]?.rel}: the shard holds this name twice`);
  }
  if (files.length > MAX_FILES_PER_DIR_TREE) {
    issues.add(display, `tasks/${task.id}: more than ${MAX_FILES_PER_DIR_TREE} files`);
    return { id: task.id, files: [] };
  }
  return { id: task.id, files };
}
