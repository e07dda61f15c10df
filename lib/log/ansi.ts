// Terminal colours of a display line as styled text segments (browser-safe). anser reads the SGR
// state; everything else it would pass through raw (OSC hyperlinks, titles, cursor moves) is cut
// out here first with the same pattern search uses, so the segments spell exactly the visible text.
import Anser from "anser";
import { ESCAPES_SOURCE } from "./lines";

/** 0–255: the xterm palette (0–15 themed, 16–255 computed); otherwise a 24-bit colour. */
export type AnsiColor = { index: number } | { rgb: readonly [number, number, number] };

export interface AnsiStyle {
  fg?: AnsiColor;
  bg?: AnsiColor;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  inverse?: boolean;
  /** SGR 8 ("hidden"): still shown, but marked, so nothing in a log can hide from a reviewer. */
  concealed?: boolean;
}

export interface AnsiSegment extends AnsiStyle {
  text: string;
}

const ESCAPE = new RegExp(ESCAPES_SOURCE, "g");
const SGR = /^\x1b\[([0-9;:]*)m$/;

/**
 * Split a display line into styled segments. Only SGR sequences style text; every other escape
 * is dropped (an OSC 8 hyperlink becomes its plain label), a lone ESC shows as ␛. Colour state
 * does not carry over from earlier lines (lines are fetched by range, in any order).
 */
export function ansiSegments(line: string): AnsiSegment[] {
  if (!line.includes("\x1b")) return line ? [{ text: line }] : [];
  // anser's input: the visible text with canonical SGR sequences between; inverse is tracked here
  // (anser would swap in fixed black and white), one flag per anser chunk.
  let input = "";
  const inverse = [false];
  let on = false;
  let last = 0;
  for (const m of line.matchAll(ESCAPE)) {
    input += visible(line.slice(last, m.index));
    last = m.index + m[0].length;
    const sgr = SGR.exec(m[0]);
    if (!sgr) continue;
    const { params, inverse: next } = splitInverse(normalizeParams(sgr[1] ?? ""), on);
    on = next;
    input += `\x1b[${params.join(";")}m`;
    inverse.push(on);
  }
  input += visible(line.slice(last));

  const out: AnsiSegment[] = [];
  Anser.ansiToJson(input, { use_classes: true }).forEach((entry, i) => {
    if (!entry.content) return;
    const seg = toSegment(entry, inverse[i] ?? false);
    const prev = out[out.length - 1];
    if (prev && sameStyle(prev, seg)) prev.text += seg.text;
    else out.push(seg);
  });
  return out;
}

/** Text between escapes: a stray ESC is shown as its control picture, as stripEscapes does. */
function visible(text: string): string {
  return text.replaceAll("\x1b", "\u241b");
}

/**
 * SGR parameters as anser reads them (semicolons only). The colon forms of extended colours
 * (`38:5:n`, `38:2::r:g:b`, `38:2:r:g:b`) become their semicolon forms; other colon
 * sub-parameters (`4:3` curly underline) keep their main number.
 */
export function normalizeParams(raw: string): string[] {
  const out: string[] = [];
  for (const group of raw.split(";")) {
    if (!group.includes(":")) {
      out.push(group);
      continue;
    }
    const parts = group.split(":");
    const head = parts[0] ?? "";
    if ((head === "38" || head === "48") && parts[1] === "5") out.push(head, "5", parts[2] ?? "");
    else if ((head === "38" || head === "48") && parts[1] === "2") out.push(head, "2", ...(parts.length >= 6 ? parts.slice(3, 6) : parts.slice(2, 5)));
    else if (head === "4") out.push(parts[1] === "0" ? "24" : "4");
    else out.push(head);
  }
  return out;
}

/** Take reverse video (7, 27) out of the parameters and follow it, skipping colour arguments as anser does. */
function splitInverse(params: string[], on: boolean): { params: string[]; inverse: boolean } {
  const kept: string[] = [];
  for (let i = 0; i < params.length; i++) {
    const p = params[i] ?? "";
    const n = parseInt(p, 10);
    if (Number.isNaN(n) || n === 0) on = false;
    if (n === 7 || n === 27) {
      on = n === 7;
      continue;
    }
    kept.push(p);
    if ((n === 38 || n === 48) && i + 1 < params.length) {
      const mode = params[++i] ?? "";
      kept.push(mode);
      const args = mode === "5" ? 1 : mode === "2" ? 3 : 0;
      if (i + args < params.length) {
        kept.push(...params.slice(i + 1, i + 1 + args));
        i += args;
      }
    }
  }
  return { params: kept, inverse: on };
}

const BASIC = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"] as const;

/** anser's colour name → our colour; numbers only, validated, never a string from the log. */
function color(name: string | null, truecolor: string | null): AnsiColor | undefined {
  if (!name) return undefined;
  const basic = /^ansi-(bright-)?([a-z]+)$/.exec(name);
  if (basic && name !== "ansi-truecolor") {
    const i = BASIC.indexOf(basic[2] as (typeof BASIC)[number]);
    return i < 0 ? undefined : { index: i + (basic[1] ? 8 : 0) };
  }
  const palette = /^ansi-palette-(\d{1,3})$/.exec(name);
  if (palette) {
    const i = Number(palette[1]);
    return i <= 255 ? { index: i } : undefined;
  }
  const rgb = name === "ansi-truecolor" && truecolor ? /^(\d{1,3}), ?(\d{1,3}), ?(\d{1,3})$/.exec(truecolor) : null;
  if (rgb) {
    const [r, g, b] = [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
    return r <= 255 && g <= 255 && b <= 255 ? { rgb: [r, g, b] } : undefined;
  }
  return undefined;
}

function toSegment(entry: Anser.AnserJsonEntry, inverse: boolean): AnsiSegment {
  const seg: AnsiSegment = { text: entry.content };
  const fg = color(entry.fg, entry.fg_truecolor);
  const bg = color(entry.bg, entry.bg_truecolor);
  if (fg) seg.fg = fg;
  if (bg) seg.bg = bg;
  const d = entry.decorations;
  if (d.includes("bold")) seg.bold = true;
  if (d.includes("dim")) seg.dim = true;
  if (d.includes("italic")) seg.italic = true;
  if (d.includes("underline")) seg.underline = true;
  if (d.includes("strikethrough")) seg.strike = true;
  if (d.includes("hidden")) seg.concealed = true;
  if (inverse) seg.inverse = true;
  return seg;
}

const sameColor = (a: AnsiColor | undefined, b: AnsiColor | undefined): boolean =>
  a === b ||
  (a !== undefined && b !== undefined && ("index" in a ? "index" in b && a.index === b.index : "rgb" in b && a.rgb.every((v, i) => v === b.rgb[i])));

const FLAGS = ["bold", "dim", "italic", "underline", "strike", "inverse", "concealed"] as const;

function sameStyle(a: AnsiStyle, b: AnsiStyle): boolean {
  return sameColor(a.fg, b.fg) && sameColor(a.bg, b.bg) && FLAGS.every((f) => Boolean(a[f]) === Boolean(b[f]));
}
