// How a stored log line becomes the line a reviewer sees (browser-safe; the server applies it
// before sending a range, the viewer and the server search agree on it).

/** Longer lines are sent clipped, with their full length, so one 10 MB line cannot stall a page. */
export const LINE_CAP = 20_000;

/** Lines a single range request may ask for. */
export const MAX_RANGE_LINES = 2_000;

/** What "jump to first error" looks for: failures as test runners, shells and Python print them. */
export const ERROR_PATTERN =
  "(^|[^A-Za-z])(error|errors|failed|failure|failures|fatal|panic|traceback|exception|assertionerror)([^A-Za-z]|$)";

/**
 * ESC-introduced sequences: CSI (colours, cursor moves), OSC (titles, hyperlinks; ended by BEL or
 * ST), and the two-byte forms. The viewer renders SGR colours and drops the rest, exactly what
 * search skips, so match offsets line up with what is shown.
 */
export const ESCAPES_SOURCE = String.raw`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]`;
const ESCAPES = new RegExp(ESCAPES_SOURCE, "g");
const CONTROLS = /[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]/g;

/**
 * Terminal-faithful enough for logs: a carriage return rewinds the line, so a progress bar that
 * redrew itself a thousand times shows its last state; a trailing CR (CRLF files) is dropped.
 * Other control characters become Unicode control pictures (U+2400 + code, DEL → U+2421) so NUL
 * and friends are visible and inert; TAB and ESC stay (ESC for the colour parser).
 */
export function displayLine(raw: string): string {
  let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  const cr = line.lastIndexOf("\r");
  if (cr !== -1) line = lastFrame(line);
  return line.replace(CONTROLS, (c) => String.fromCharCode(c === "\x7f" ? 0x2421 : 0x2400 + c.charCodeAt(0)));
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
