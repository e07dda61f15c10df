// Untrusted text can hide intent in characters a browser never paints (Trojan Source bidi
// overrides, zero-width joiners, `\r` overwrites, Unicode tag "ASCII smuggling"). The code,
// diff, log and markdown views split text with this function and draw each one as a marker.

export type TextSegment =
  | { kind: "text"; text: string }
  | { kind: "mark"; code: number; label: string; title: string; count: number };

/** Short labels for the characters a reviewer is most likely to meet. */
const NAMES: Record<number, [label: string, name: string]> = {
  0x00: ["NUL", "NULL"],
  0x07: ["BEL", "BELL"],
  0x08: ["BS", "BACKSPACE"],
  0x0b: ["VT", "LINE TABULATION"],
  0x0c: ["FF", "FORM FEED"],
  0x0d: ["CR", "CARRIAGE RETURN"],
  0x1b: ["ESC", "ESCAPE"],
  0x7f: ["DEL", "DELETE"],
  0xad: ["SHY", "SOFT HYPHEN"],
  0x061c: ["ALM", "ARABIC LETTER MARK"],
  0x180e: ["MVS", "MONGOLIAN VOWEL SEPARATOR"],
  0x200b: ["ZWSP", "ZERO WIDTH SPACE"],
  0x200c: ["ZWNJ", "ZERO WIDTH NON-JOINER"],
  0x200d: ["ZWJ", "ZERO WIDTH JOINER"],
  0x200e: ["LRM", "LEFT-TO-RIGHT MARK"],
  0x200f: ["RLM", "RIGHT-TO-LEFT MARK"],
  0x202a: ["LRE", "LEFT-TO-RIGHT EMBEDDING"],
  0x202b: ["RLE", "RIGHT-TO-LEFT EMBEDDING"],
  0x202c: ["PDF", "POP DIRECTIONAL FORMATTING"],
  0x202d: ["LRO", "LEFT-TO-RIGHT OVERRIDE"],
  0x202e: ["RLO", "RIGHT-TO-LEFT OVERRIDE"],
  0x2060: ["WJ", "WORD JOINER"],
  0x2061: ["U+2061", "FUNCTION APPLICATION"],
  0x2062: ["U+2062", "INVISIBLE TIMES"],
  0x2063: ["U+2063", "INVISIBLE SEPARATOR"],
  0x2064: ["U+2064", "INVISIBLE PLUS"],
  0x2066: ["LRI", "LEFT-TO-RIGHT ISOLATE"],
  0x2067: ["RLI", "RIGHT-TO-LEFT ISOLATE"],
  0x2068: ["FSI", "FIRST STRONG ISOLATE"],
  0x2069: ["PDI", "POP DIRECTIONAL ISOLATE"],
  // The database cannot store 0x00 in text, so ingest writes U+2400 (SYMBOL FOR NULL) instead.
  0x2400: ["NUL", "NUL byte (stored as U+2400)"],
  0xfeff: ["BOM", "ZERO WIDTH NO-BREAK SPACE / BYTE ORDER MARK"],
};

const TAG_FIRST = 0xe0000;
const TAG_LAST = 0xe007f;

/** Every character the views must not pass through silently. Tab and LF are ordinary. */
export const INVISIBLE_RE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u2400\uFEFF\u{E0000}-\u{E007F}]/u;

export function isInvisible(code: number): boolean {
  return INVISIBLE_RE.test(String.fromCodePoint(code));
}

export function hasInvisible(text: string): boolean {
  return INVISIBLE_RE.test(text);
}

export function countInvisible(text: string): number {
  let n = 0;
  for (const seg of splitInvisible(text)) if (seg.kind === "mark") n += seg.count;
  return n;
}

export function codePointLabel(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

function describe(code: number): { label: string; title: string } {
  const known = NAMES[code];
  const cp = codePointLabel(code);
  if (known) return { label: known[0], title: `${cp} ${known[1]}` };
  if (code < 0x20) return { label: `^${String.fromCharCode(code + 0x40)}`, title: `${cp} control character` };
  return { label: cp, title: `${cp} invisible or control character` };
}

/**
 * Split text into plain runs and markers. Repeats of one character collapse into one marker with
 * a count (a log full of NULs stays readable); a run of tag characters becomes one marker that
 * spells out the ASCII it hides.
 */
export function splitInvisible(text: string): TextSegment[] {
  if (!INVISIBLE_RE.test(text)) return text === "" ? [] : [{ kind: "text", text }];
  const out: TextSegment[] = [];
  let plain = "";
  let tags = "";
  const flushPlain = () => {
    if (plain !== "") out.push({ kind: "text", text: plain });
    plain = "";
  };
  const flushTags = () => {
    if (tags === "") return;
    out.push({ kind: "mark", code: TAG_FIRST, label: `TAG “${tags}”`, title: `Unicode tag characters hiding the text “${tags}”`, count: [...tags].length });
    tags = "";
  };
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= TAG_FIRST && code <= TAG_LAST) {
      flushPlain();
      // Tags 0x20..0x7e shadow printable ASCII; the rest are shown by their code point.
      const ascii = code - TAG_FIRST;
      tags += ascii >= 0x20 && ascii < 0x7f ? String.fromCharCode(ascii) : `‹${codePointLabel(code)}›`;
      continue;
    }
    flushTags();
    if (!isInvisible(code)) {
      plain += ch;
      continue;
    }
    flushPlain();
    const last = out[out.length - 1];
    if (last && last.kind === "mark" && last.code === code) {
      last.count += 1;
      continue;
    }
    out.push({ kind: "mark", code, ...describe(code), count: 1 });
  }
  flushTags();
  flushPlain();
  return out;
}
