// Reads a directory tree without following links: ingest must never leave the root it was given.
// Synchronous on purpose: it runs in the reader threads, where one blocking read per file costs
// far less than a promise round trip through the libuv pool (a paper-scale run has 2M files).
import fs from "node:fs";
import path from "node:path";
import type { IssueList } from "./errors";

export const MAX_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_FILES_PER_DIR_TREE = 10_000;

export interface TreeFile {
  /** POSIX path relative to the root. */
  rel: string;
  bytes: Buffer;
}

const byName = (a: fs.Dirent, b: fs.Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Reads one regular file. O_NOFOLLOW refuses a symlink swapped in after the directory listing;
 * the size is checked on the open descriptor, before reading.
 */
function readRegularFile(abs: string, display: string, issues: IssueList): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    issues.add(display, code === "ELOOP" ? "symbolic links are not imported" : `cannot read: ${code ?? (err as Error).message}`);
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      issues.add(display, "not a regular file");
      return null;
    }
    if (stat.size > MAX_FILE_BYTES) {
      issues.add(display, `file is ${stat.size} bytes, over the ${MAX_FILE_BYTES}-byte limit`);
      return null;
    }
    const bytes = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = fs.readSync(fd, bytes, filled, bytes.length - filled, null);
      if (n === 0) break; // shrank while reading: keep what is there
      filled += n;
    }
    return filled === bytes.length ? bytes : bytes.subarray(0, filled);
  } catch (err) {
    issues.add(display, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
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
      const abs = path.join(dir, entry.name);
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
