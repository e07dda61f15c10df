// Large logs cut into line chunks at ingest, so the viewer's server can answer "lines 640,000 to
// 641,000 of a 50 MB log" by reading one or two rows (db/queries/trials.ts), never the whole log.
import { LINE_CAP } from "@/lib/log/lines";

/** Logs above either size are chunked; smaller ones are split from their blob when read. */
export const CHUNK_LOG_BYTES = 256 * 1024;
export const CHUNK_LOG_LINES = 2_000;
/** A chunk ends at a line boundary once it holds this many lines or characters. */
export const CHUNK_MAX_LINES = 1_000;
export const CHUNK_MAX_CHARS = 256 * 1024;

export interface LogChunk {
  firstLine: number;
  lineCount: number;
  /** the chunk's lines joined by "\n" (each clipped to LINE_CAP characters) */
  content: string;
  /** [line offset within the chunk, full length] of every clipped line, or null */
  clipped: [number, number][] | null;
}

export function needsChunks(bytes: number, lines: number): boolean {
  return bytes > CHUNK_LOG_BYTES || lines > CHUNK_LOG_LINES;
}

/**
 * Lines are what countLines counts: separated by "\n", a final "\n" ends the last line rather
 * than starting an empty one. Content is sliced, not copied line by line, except around a
 * clipped line.
 */
export function cutLogChunks(text: string): LogChunk[] {
  const out: LogChunk[] = [];
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  if (text.length === 0) return out;
  let line = 0;
  let pos = 0;
  while (pos <= end) {
    const first = line;
    const start = pos;
    let parts: string[] | null = null;
    let clipped: [number, number][] | null = null;
    let count = 0;
    while (pos <= end && count < CHUNK_MAX_LINES && (count === 0 || pos - start < CHUNK_MAX_CHARS)) {
      let nl = text.indexOf("\n", pos);
      if (nl === -1 || nl > end) nl = end;
      const length = nl - pos;
      if (length > LINE_CAP) {
        // From here on the chunk is built from pieces: the clipped line and the rest as slices.
        parts ??= count > 0 ? [text.slice(start, pos - 1)] : [];
        parts.push(text.slice(pos, clipEnd(text, pos + LINE_CAP)));
        (clipped ??= []).push([count, length]);
      } else if (parts) {
        parts.push(text.slice(pos, nl));
      }
      count++;
      line++;
      pos = nl + 1;
    }
    const content = parts ? parts.join("\n") : text.slice(start, Math.min(pos - 1, end));
    out.push({ firstLine: first, lineCount: count, content, clipped });
  }
  return out;
}

/** A cut that does not split a surrogate pair (half a pair is not storable text). */
function clipEnd(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}
