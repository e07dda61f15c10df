// Reads a directory tree without following links: ingest must never leave the root it was given.
// Synchronous on purpose: it runs in the reader threads, where one blocking read per file costs
// far less than a promise round trip through the libuv pool (a paper-scale run has 2M files).
import fs from "node:fs";
import type { IssueList } from "./errors";

export const MAX_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_FILES_PER_DIR_TREE = 10_000;

export interface TreeFile {
  /** POSIX path relative to the root. */
  rel: string;
  bytes: Buffer;
}

const byName = (a: fs.Dirent, b: fs.Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Where files are read first: most files of a run fit, and one copy out of it is all they cost. */
const scratch = Buffer.allocUnsafe(256 * 1024);

/**
 * Reads one regular file. O_NOFOLLOW refuses a symlink swapped in after the directory listing,
 * O_NONBLOCK a FIFO (it reads as empty instead of waiting for a writer); the listing said it was a
 * regular file. No fstat: a file is read until a short read, and refused as soon as it passes
 * MAX_FILE_BYTES (a system call and a Stats object fewer per file, 2 million of them at paper scale).
 */
function readRegularFile(abs: string, display: string, issues: IssueList): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    issues.add(display, code === "ELOOP" ? "symbolic links are not imported" : `cannot read: ${code ?? (err as Error).message}`);
    return null;
  }
  try {
    const n = fs.readSync(fd, scratch, 0, scratch.length, null);
    // Short of the buffer: the whole file (a regular file reads short only at its end).
    if (n < scratch.length) return Buffer.from(scratch.subarray(0, n));
    // The scratch buffer as the first part: concat copies it before any other file is read.
    const parts = [scratch];
    let size = n;
    for (;;) {
      // Doubling, and never past the first byte over the limit.
      const part = Buffer.allocUnsafe(Math.min(size, MAX_FILE_BYTES + 1 - size));
      const got = fs.readSync(fd, part, 0, part.length, null);
      if (got === 0) return Buffer.concat(parts, size);
      size += got;
      if (size > MAX_FILE_BYTES) {
        issues.add(display, `file is over the ${MAX_FILE_BYTES}-byte limit`);
        return null;
      }
      parts.push(got === part.length ? part : part.subarray(0, got));
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    issues.add(display, code === "EISDIR" ? "not a regular file" : `cannot read: ${code ?? (err as Error).message}`);
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Regular files under `root` with their bytes, sorted by path. Links and devices are reported
 * and skipped; so is everything past MAX_FILES_PER_DIR_TREE files. */
export function readTree(root: string, issues: IssueList, displayRoot: string): TreeFile[] {
  const out: TreeFile[] = [];
  let full = false;
  function visit(dir: string, relDir: string): void {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      issues.add(relDir ? `${displayRoot}/${relDir}` : displayRoot, `cannot list: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      return;
    }
    entries.sort(byName);
    for (const entry of entries) {
      if (full) return;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      const abs = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        visit(abs, rel);
      } else if (entry.isFile()) {
        const bytes = readRegularFile(abs, `${displayRoot}/${rel}`, issues);
        if (bytes === null) continue;
        out.push({ rel, bytes });
        if (out.length > MAX_FILES_PER_DIR_TREE) {
          issues.add(displayRoot, `more than ${MAX_FILES_PER_DIR_TREE} files`);
          full = true;
        }
      } else {
        issues.add(`${displayRoot}/${rel}`, entry.isSymbolicLink() ? "symbolic links are not imported" : "not a regular file");
      }
    }
  }
  visit(root, "");
  return out;
}

export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.promises.lstat(p)).isDirectory();
  } catch {
    return false;
  }
}

export function isDirectorySync(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
