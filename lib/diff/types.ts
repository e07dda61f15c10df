// The structured diff of lib/diff, in the JSON shape of the API (`../shared/API.md`, field names in
// snake_case). Browser-safe: types only.

export type FileStatus = "added" | "removed" | "modified" | "unchanged";

export type LineOp = "add" | "del" | "ctx";

/**
 * How a line ended, when it did not end with a plain LF:
 * - `"crlf"`: the line ended with `\r\n`; `text` holds the line without the `\r`;
 * - `"none"`: the last line of a file without a newline at the end ("\ No newline at end of file").
 * Absent means `\n`. A `\r` that is not part of a final `\r\n` stays in `text` (shown as a marker).
 * Line endings take part in the comparison: a line that only changed its ending is a del + add.
 */
export type Eol = "crlf" | "none";

export interface DiffLine {
  op: LineOp;
  /** 1-based line number in the old file; null for an added line */
  old_no: number | null;
  /** 1-based line number in the new file; null for a deleted line */
  new_no: number | null;
  /** the line without its line ending (tabs, invisible and bidi characters untouched) */
  text: string;
  eol?: Eol;
}

/**
 * A hunk covers old lines [old_start, old_start + old_lines) and new lines
 * [new_start, new_start + new_lines), 1-based. Unlike GNU unified diffs, an empty side still
 * names the position it sits at (`old_start: 1, old_lines: 0` for an insertion into an empty
 * file, never `0`), so the unchanged lines between two hunks are always
 * old lines [prev.old_start + prev.old_lines, next.old_start).
 */
export interface DiffHunk {
  old_start: number;
  new_start: number;
  old_lines: number;
  new_lines: number;
  lines: DiffLine[];
}

export interface TextDiff {
  status: FileStatus;
  hunks: DiffHunk[];
  /** lines added / deleted over the whole file (not only those shown) */
  added: number;
  removed: number;
  /** lines in the old and new text (0 for a side that does not exist) */
  old_line_count: number;
  new_line_count: number;
  /**
   * true when a region was too costly to align line by line (pathological input beyond the edit
   * budget) and was shown as "all old lines deleted, all new lines added": still exact, only coarser.
   */
  coarse?: boolean;
}

export interface FileDiff extends TextDiff {
  path: string;
}

export interface DiffOptions {
  /** unchanged lines shown around each change; default 3; `Infinity` shows the whole file as one hunk */
  context?: number;
  /**
   * Edit budget (lines) for aligning one region without unique anchor lines; beyond it the region
   * is shown coarsely (`coarse: true`). Default 2,000.
   */
  maxEditLength?: number;
}
