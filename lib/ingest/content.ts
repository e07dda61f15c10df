// How file and log bytes become storable text: PostgreSQL text rejects 0x00 and invalid UTF-8.
import { createHash } from "node:crypto";

export const NUL_MARKER = "\u2400";

export interface StoredContent {
  hash: string;
  size: number;
  encoding: "utf8" | "base64";
  content: string;
}

export function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Valid UTF-8 becomes text (NUL shown as U+2400); anything else is kept exactly as base64. */
export function toStoredContent(bytes: Buffer): StoredContent {
  const hash = sha256(bytes);
  let text: string | null = null;
  try {
    text = decoder.decode(bytes);
  } catch {
    text = null;
  }
  if (text !== null && !text.includes(NUL_MARKER)) {
    return { hash, size: bytes.length, encoding: "utf8", content: text.includes("\0") ? text.replaceAll("\0", NUL_MARKER) : text };
  }
  return { hash, size: bytes.length, encoding: "base64", content: bytes.toString("base64") };
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
