// Lines as a reviewer should see them: split on LF only, so a stray `\r` stays in the line
// (and is drawn as a marker) instead of silently becoming a line break.
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export const MAX_LINE_CHARS = 5_000;

/** Cut a line for display; the caller shows how much was left out. */
export function clipLine(line: string, max = MAX_LINE_CHARS): { text: string; omitted: number } {
  if (line.length <= max) return { text: line, omitted: 0 };
  // Do not split a surrogate pair at the cut.
  const code = line.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return { text: line.slice(0, end), omitted: line.length - end };
}
