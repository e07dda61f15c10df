// diffFiles: every path of two task versions, in reviewing order. Browser-safe.

import { diffText } from "./text";
import type { DiffOptions, FileDiff, FileStatus } from "./types";

export type TaskFiles = Readonly<Record<string, string>>;

export interface FilesDiff {
  files: FileDiff[];
  /** files per status, and changed lines over all files */
  counts: Record<FileStatus, number> & { lines_added: number; lines_removed: number };
}

/** Reviewing order: solution, verifier, instruction, environment, task config, the rest. */
export function pathRank(path: string): number {
  if (path === "solution/solve.sh") return 0;
  if (path.startsWith("tests/")) return 1;
  if (path === "instruction.md") return 2;
  if (path.startsWith("environment/")) return 3;
  if (path === "task.toml") return 4;
  return 5;
}

export function comparePaths(a: string, b: string): number {
  const rank = pathRank(a) - pathRank(b);
  if (rank !== 0) return rank;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Own properties only: a path named `constructor` or `__proto__` must not read Object.prototype. */
function fileOf(files: TaskFiles, path: string): string | null {
  return Object.hasOwn(files, path) ? (files[path] ?? null) : null;
}

/**
 * Per-path diffs of two file sets (`{path: text}`), sorted for review: solution/solve.sh, tests/*,
 * instruction.md, environment/*, task.toml, then the rest (each group by path). Unchanged files
 * are listed with no hunks.
 */
export function diffFiles(oldFiles: TaskFiles, newFiles: TaskFiles, opts: DiffOptions = {}): FilesDiff {
  const paths = [...new Set([...Object.keys(oldFiles), ...Object.keys(newFiles)])].sort(comparePaths);
  const counts = { added: 0, removed: 0, modified: 0, unchanged: 0, lines_added: 0, lines_removed: 0 };
  const files: FileDiff[] = paths.map((path) => {
    const diff = diffText(fileOf(oldFiles, path), fileOf(newFiles, path), opts);
    counts[diff.status] += 1;
    counts.lines_added += diff.added;
    counts.lines_removed += diff.removed;
    return { path, ...diff };
  });
  return { files, counts };
}
