// How a stored log line becomes the line a reviewer sees (browser-safe; the server applies it
// before sending a range, the viewer and the server search agree on it).

/** Longer lines are sent clipped, with their full length, so one 10 MB line cannot stall a page. */
export const LINE_CAP = 20_000;

/** Lines a single range request may ask for. */
export const MAX_RANGE_LINES = 2_000;

/** What "jump to first error" looks for: failures as test runners, shells and Python print them. */
export const ERROR_PATTERN =
  "(?<![A-Za-z])(error|errors|failed|failure|failures|fatal|panic|traceback|exception|assertionerror)(?![A-Za-z])";

/**
 * ESC-introduced sequences: CSI (colours, cursor moves), OSC (titles, hyperlinks; ended by BEL or
 * ST), character-set designations like `ESC ( B` (what `tput sgr0` prints), and the two-byte
 * forms (`ESC 7`, `ESC =`, …; an unfinished `ESC [` stays visible as ␛[). The viewer renders SGR colours and drops the rest, exactly what
 * search skips, so match offsets line up with what is shown.
 */
export const ESCAPES_SOURCE = String.raw`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[ -/]+[0-~]|\x1b[0-Z\\^-~]`;
const ESCAPES = new RegExp(ESCAPES_SOURCE, "g");
/** An escape sequence (kept as it is) or a control byte (shown as a picture), in one pass: the
 * BEL that ends an OSC belongs to the sequence, not to the text. */
const ESCAPE_OR_CONTROL = new RegExp(`${ESCAPES_SOURCE}|[\\x00-\\x08\\x0b-\\x1a\\x1c-\\x1f\\x7f]`, "g");
/** Anything displayLine would change (CR is among the controls). */
const NEEDS_DISPLAY = /[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]/;

/**
 * Terminal-faithful enough for logs: a carriage return rewinds the line, so a progress bar that
 * redrew itself a thousand times shows its last state; a trailing CR (CRLF files) is dropped.
 * Other control characters become Unicode control pictures (U+2400 + code, DEL → U+2421) so NUL
 * and friends are visible and inert; TAB and ESC stay (ESC for the colour parser).
 */
export function displayLine(raw: string): string {
  if (!NEEDS_DISPLAY.test(raw)) return raw;
  let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  const cr = line.lastIndexOf("\r");
  if (cr !== -1) line = lastFrame(line);
  return line.replace(ESCAPE_OR_CONTROL, (m) => (m.length > 1 ? m : String.fromCharCode(m === "\x7f" ? 0x2421 : 0x2400 + m.charCodeAt(0))));
}

/** The last non-empty frame of a line redrawn with carriage returns. */
function lastFrame(line: string): string {
  const frames = line.split("\r");
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i] ?? "";
    if (stripEscapes(frame).length > 0) return frame;
  }
  return "";
}

/** The visible text of a display line: what search matches and what highlight offsets count in. */
export function stripEscapes(line: string): string {
  return line.includes("\x1b") ? line.replace(ESCAPES, "").replaceAll("\x1b", "\u241b") : line;
}

/**
 * The visible text of every line of a block of raw lines ("\n"-separated), as displayLine and
 * stripEscapes would give them one by one; a block with nothing for displayLine to do is
 * stripped in one pass (escape sequences never span a newline), which is what makes searching a
 * 50 MB log affordable.
 */
export function visibleLines(block: string): string[] {
  if (!NEEDS_DISPLAY.test(block)) return stripEscapes(block).split("\n");
  return block.split("\n").map((l) => stripEscapes(displayLine(l)));
}
