// What the diff page hands its client views (built by ./payload on the server): per file, compact
// rows plus the highlighted lines of both sides (tokens from lib/text/highlight, never HTML).
import type { CodeLine } from "@/lib/text/tones";
import type { FileStatus } from "./types";

/** op: 0 context, 1 deleted, 2 added; line numbers 0 when the side has none; eol 0 LF, 1 CRLF, 2 none. */
export type DiffRowTuple = readonly [op: 0 | 1 | 2, oldNo: number, newNo: number, eol: 0 | 1 | 2];

export interface DiffFilePayload {
  index: number;
  path: string;
  status: FileStatus;
  added: number;
  removed: number;
  oldLineCount: number;
  newLineCount: number;
  language: string;
  binary: boolean;
  coarse: boolean;
  /** The whole file as one hunk (unchanged files: empty; the view links to the file instead). */
  rows: DiffRowTuple[];
  /** Highlighted old lines, by line number − 1; only deleted lines are filled (the rest are drawn
   * from the new side, where they are the same). */
  old: CodeLine[];
  new: CodeLine[];
}
