/** Words of code and prose alike: paths, flags and file names split into their parts, so the
 * index and the query agree ("out-2.txt" is the phrase out 2 txt). */
export function searchWords(text: string): string {
  return text.replace(/[^\p{L}\p{N}_]+/gu, " ").trim();
}
