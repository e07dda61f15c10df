// lib/diff, the browser-safe part: line diffs, applying them, intra-line changes, side-by-side rows,
// per-path diffs of two task versions. The parser-backed step summary is in ./summary (server only).

export { applyHunks, ApplyError, DEFAULT_CONTEXT, diffGaps, diffText, lineRaw, rawLines, splitEnding, type DiffGap } from "./text";
export { CHAR_LEVEL_MAX, INTRA_MAX, intraLine, pairRows, type IntraLine, type Segment, type SideBySideRow } from "./intraline";
export { comparePaths, diffFiles, pathRank, type FilesDiff, type TaskFiles } from "./files";
export type { DiffHunk, DiffLine, DiffOptions, Eol, FileDiff, FileStatus, LineOp, TextDiff } from "./types";
