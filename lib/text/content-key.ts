// Server only: the key a cache of per-file work (parses, highlighting) files a text under. SHA-256,
// because the texts are untrusted: a crafted collision must not show one file's results for another.
import { createHash } from "node:crypto";

export function contentKey(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
