const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whitespace-separated tokens with a letter or digit in them: `#`, `-`, `*` and code fences on
 * their own are markdown, not words; code spans are part of the instruction and count. */
export function countInstructionWords(markdown: string): number {
  let count = 0;
  for (const token of markdown.split(/\s+/)) {
    if (HAS_LETTER_OR_DIGIT.test(token)) count += 1;
  }
  return count;
}
