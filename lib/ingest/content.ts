// How file and log bytes become storable text: PostgreSQL text rejects 0x00 and invalid UTF-8.
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";

export const NUL_MARKER = "\u2400";
const NUL_MARKER_BYTES = Buffer.from(NUL_MARKER);

export interface StoredContent {
  hash: string;
  size: number;
  encoding: "utf8" | "base64";
  content: string;
}

export function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Valid UTF-8 becomes text (NUL shown as U+2400); anything else is kept exactly as base64, and
 * so is text that already holds U+2400 (the marker must stay unambiguous). The checks run on the
 * bytes (native scans) before any string exists: ingest stores two million files.
 */
export function toStoredContent(bytes: Buffer): StoredContent {
  const hash = sha256(bytes);
  if (isUtf8(bytes) && bytes.indexOf(NUL_MARKER_BYTES) === -1) {
    const text = bytes.toString("utf8");
    return { hash, size: bytes.length, encoding: "utf8", content: bytes.indexOf(0) === -1 ? text : text.replaceAll("\0", NUL_MARKER) };
  }
  return { hash, size: bytes.length, encoding: "base64", content: bytes.toString("base64") };
}

/** The exact bytes stored content came from. */
export function storedBytes(c: Pick<StoredContent, "encoding" | "content">): Buffer {
  return c.encoding === "base64" ? Buffer.from(c.content, "base64") : Buffer.from(c.content.replaceAll(NUL_MARKER, "\0"), "utf8");
}

/** Readable text of stored content (lossy for binary: invalid bytes become U+FFFD). */
export function storedText(c: Pick<StoredContent, "encoding" | "content">): string {
  return c.encoding === "utf8" ? c.content : Buffer.from(c.content, "base64").toString("utf8");
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** countLines of the bytes' text without decoding them: 0x0A is never part of a multi-byte
 * UTF-8 sequence, and a lossy decode keeps every newline. */
export function countLinesOfBytes(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let n = 1;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return bytes[bytes.length - 1] === 10 ? n - 1 : n;
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/;

/**
 * A string from parsed JSON made storable in a text or jsonb column: NUL becomes U+2400 (as in
 * files) and a lone surrogate (`"\ud800"` is valid JSON) becomes U+FFFD instead of failing the
 * whole import in the database.
 */
export function storableString(s: string): string {
  let out = s.includes("\0") ? s.replaceAll("\0", NUL_MARKER) : s;
  if (LONE_SURROGATE.test(out)) out = (out as unknown as { toWellFormed(): string }).toWellFormed();
  return out;
}
