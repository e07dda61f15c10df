// The full-text vector of a task, built here instead of by to_tsvector('simple', …) in the
// database: there, parsing ~16 KB of words per task was the largest single cost of an import
// (≈1.7 ms of server CPU per task, more than the rest of the task's rows together). Built in the
// reader threads it runs in parallel, and the database only reads a tsvector literal.
//
// Exactness matters (the query side parses with the database's parser), so this covers only
// text where PostgreSQL's default parser is simple, and returns null for anything else; then the
// database computes the vector itself. RunWriter also checks, once per import, that the
// database agrees on a probe text (PROBE below), and uses to_tsvector for everything otherwise.

/** PostgreSQL keeps at most 255 positions of a lexeme in to_tsvector (MAXNUMPOS - 1)… */
const MAX_POSITIONS = 255;
/** …and clamps positions at 16383 (MAXENTRYPOS - 1): past that we let it decide. */
const MAX_POSITION = 16_383;
/** Longer words get notices and special handling (limit 2047 bytes); hand them over. */
const MAX_WORD = 200;

// After searchWords the text holds runs of letters, digits and `_`. For ASCII, the default
// parser makes each run of [A-Za-z0-9] between `_` and spaces one token (asciiword, numword,
// uint) — except a run that starts like scientific notation (`1e5x` is the sfloat `1e5` plus
// the word `x`): those go to the database.
const OUTSIDE_RULES = /[^a-zA-Z0-9_ ]/;
const SCIENTIFIC = /^[0-9]+e[0-9]/;

/**
 * The tsvector literal to_tsvector('simple', words) gives, for `words` as searchWords returns
 * them; null when the database has to compute it.
 */
export function searchVector(words: string): string | null {
  if (OUTSIDE_RULES.test(words)) return null;
  const lower = words.toLowerCase();
  const lexemes = new Map<string, number[]>();
  let position = 0;
  let start = 0;
  // One pass over the characters: a token ends at a space or `_` (and at the end).
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if (c !== 32 && c !== 95) continue;
    if (i > start) {
      const token = lower.slice(start, i);
      if (token.length > MAX_WORD || SCIENTIFIC.test(token)) return null;
      position += 1;
      if (position > MAX_POSITION) return null;
      const positions = lexemes.get(token);
      if (positions === undefined) lexemes.set(token, [position]);
      else if (positions.length < MAX_POSITIONS) positions.push(position);
    }
    start = i + 1;
  }
  const parts: string[] = [];
  for (const [lexeme, positions] of lexemes) parts.push(`'${lexeme}':${positions.join(",")}`);
  return parts.join(" ");
}

/** A text exercising every rule above; RunWriter compares the database's vector of it with ours. */
export const SEARCH_VECTOR_PROBE = [
  "Create app out 2 txt test_outputs __init__ a_b_c X11 x86_64 0x1F 007 123abc abc123 1e 12E e2e",
  "UPPER lower MiXeD Z9 9z 1_2 3d 10 100000000000000000000",
  Array.from({ length: 300 }, () => "again").join(" "),
].join(" ");
