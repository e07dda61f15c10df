// How a styled segment looks: classes from the fixed 16-colour palette (components/log/ansi.css,
// themed for light and dark), and for 256-colour and 24-bit colours a CSS colour written from
// validated numbers. Nothing here ever copies a string out of a log.
import type { AnsiColor, AnsiStyle } from "./ansi";

export interface SegmentLook {
  className: string;
  style?: { color?: string; backgroundColor?: string };
}

const CUBE = [0, 95, 135, 175, 215, 255] as const;

/** The xterm 256-colour table above the 16 themed colours, as numbers. */
export function paletteRgb(index: number): [number, number, number] {
  if (index >= 232) {
    const v = 8 + 10 * (index - 232);
    return [v, v, v];
  }
  const i = index - 16;
  return [CUBE[Math.floor(i / 36) % 6] ?? 0, CUBE[Math.floor(i / 6) % 6] ?? 0, CUBE[i % 6] ?? 0];
}

type Themed = { kind: "class"; index: number } | { kind: "rgb"; css: string };

function resolve(c: AnsiColor): Themed {
  if ("index" in c && c.index < 16) return { kind: "class", index: Math.max(0, Math.trunc(c.index)) };
  const [r, g, b] = "index" in c ? paletteRgb(Math.min(255, Math.trunc(c.index))) : c.rgb;
  const n = (v: number) => Math.max(0, Math.min(255, Math.trunc(v)));
  return { kind: "rgb", css: `rgb(${n(r)} ${n(g)} ${n(b)})` };
}

// Colours picked for a black terminal wash out on a white page: darken them in the light theme.
const textColor = (css: string) => `light-dark(color-mix(in oklab, ${css} 68%, black), ${css})`;
// A background is a tint under the page's own text, so text stays readable in both themes.
const tint = (css: string) => `color-mix(in oklab, ${css} 30%, transparent)`;

export function segmentLook(s: AnsiStyle): SegmentLook {
  const classes: string[] = [];
  const style: NonNullable<SegmentLook["style"]> = {};
  const fg = s.fg ? resolve(s.fg) : undefined;
  const bg = s.bg ? resolve(s.bg) : undefined;
  if (s.inverse) {
    // Reverse video: the text colour becomes a solid background, the background (or page) the text.
    if (!fg) classes.push("ansi-bgs-fg");
    else if (fg.kind === "class") classes.push(`ansi-bgs-${fg.index}`);
    else style.backgroundColor = fg.css;
    if (!bg) classes.push("ansi-fg-page");
    else if (bg.kind === "class") classes.push(`ansi-fg-${bg.index}`);
    else style.color = bg.css;
  } else {
    if (fg?.kind === "class") classes.push(`ansi-fg-${fg.index}`);
    else if (fg) style.color = textColor(fg.css);
    if (bg?.kind === "class") classes.push(`ansi-bg-${bg.index}`);
    else if (bg) style.backgroundColor = tint(bg.css);
  }
  if (s.bold) classes.push("font-semibold");
  if (s.dim) classes.push("opacity-60");
  if (s.italic) classes.push("italic");
  if (s.underline && s.strike) classes.push("[text-decoration-line:underline_line-through]");
  else if (s.underline) classes.push("underline");
  else if (s.strike) classes.push("line-through");
  if (s.concealed) classes.push("ansi-concealed");
  return style.color || style.backgroundColor ? { className: classes.join(" "), style } : { className: classes.join(" ") };
}
