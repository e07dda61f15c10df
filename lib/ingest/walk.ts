// Reads a directory tree without following links: ingest must never leave the root it was given.
import fs from "node:fs/promises";
import path from "node:path";
import type { IssueList } from "./errors";

export const MAX_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_FILES_PER_DIR_TREE = 10_000;

export interface WalkedFile {
  /** POSIX path relative to the root. */
  rel: string;
  abs: string;
  size: number;
}

/** Regular files under `root`, sorted by path. Links and devices are reported and skipped. */
export async function walkFiles(root: string, issues: IssueList, displayRoot: string): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  async function visit(dir: string, relDir: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        await visit(abs, rel);
      } else if (entry.isFile()) {
        const stat = await fs.stat(abs);
        if (stat.size > MAX_FILE_BYTES) {
          issues.add(`${displayRoot}/${rel}`, `file is ${stat.size} bytes, over the ${MAX_FILE_BYTES}-byte limit`);
          continue;
        }
        out.push({ rel, abs, size: stat.size });
        if (out.length > MAX_FILES_PER_DIR_TREE) {
          issues.add(displayRoot, `more than ${MAX_FILES_PER_DIR_TREE} files`);
          return;
        }
      } else {
        issues.add(`${displayRoot}/${rel}`, entry.isSymbolicLink() ? "symbolic links are not imported" : "not a regular file");
      }
    }
  }
  await visit(root, "");
  return out;
}

export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.lstat(p)).isDirectory();
  } catch {
    return false;
  }
}

export async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.lstat(p)).isFile();
  } catch {
    return false;
  }
}
