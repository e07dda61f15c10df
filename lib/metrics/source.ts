/** LF only, without a BOM: a `\r` would otherwise end up inside the last word of every line. */
export function normalizeSource(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
}
