// The fixed palette code is drawn with. Highlighters map whatever they produce onto these
// indices; the view turns an index into a CSS class, so no colour ever comes from the data.
export const TONES = [
  "plain",
  "keyword",
  "string",
  "comment",
  "constant",
  "function",
  "parameter",
  "punctuation",
  "string-expression",
  "link",
  "inserted",
  "deleted",
  "changed",
  // A marker the server inserts where it cut an overlong line.
  "elided",
] as const;
export type ToneName = (typeof TONES)[number];

/** One token: a palette index and its text. A tuple keeps large files small on the wire. */
export type CodeToken = readonly [tone: number, text: string];
export type CodeLine = readonly CodeToken[];

export const TONE_ELIDED = TONES.indexOf("elided");

export function toneIndex(name: string): number {
  const i = (TONES as readonly string[]).indexOf(name);
  return i < 0 ? 0 : i;
}

export function toneClass(tone: number): string {
  return `tk-${TONES[tone] ?? "plain"}`;
}
