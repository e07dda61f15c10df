// The full-text vector of a task, built here instead of by to_tsvector('simple', …) in the
// database: there, parsing ~16 KB of words per task was the largest single cost of an import
// (≈1.7 ms of server CPU per task, more than the rest of the task's rows together). Built in the
// reader threads it runs in parallel, and the database only receives the vector (in binary form).
//
// Exactness matters (the query side parses with the database's parser), so this covers only
// text where PostgreSQL's default parser is simple, and returns null for anything else; then the
// database computes the vector itself. RunWriter also checks, once per import, that the
// database agrees on a probe text (PROBE below), and uses to_tsvector for everything otherwise.

import { searchWords } from "@/lib/tasks/search";
import { MAX_WORD, TextLexemes, wordHash, wordPair } from "./search-lexemes";

export { wordHash, wordPair } from "./search-lexemes";

// After searchWords the text holds runs of letters, digits and `_`. For ASCII, the default
// parser makes each run of [A-Za-z0-9] between `_` and spaces one token (asciiword, numword,
// uint) — except a run that starts like scientific notation (`1e5x` is the sfloat `1e5` plus
// the word `x`): those go to the database.
const OUTSIDE_RULES = /[^a-zA-Z0-9_ ]/;
const SCIENTIFIC = /^[0-9]+e[0-9]/;

/** A task's search index as the reader builds it (searchIndex). */
export interface SearchIndex {
  /** what to_tsvector('simple', words) gives, in tsvector's binary form (what COPY … (FORMAT
   * binary) sends: db/queries/ingest.ts), lexemes sorted as PostgreSQL keeps them */
  vector: Uint8Array;
  /** the hashes of every pair of adjacent words (wordPair), sorted, each once */
  pairs: Int32Array;
}

/** The lexemes of the text read last (one reader per thread, reused from text to text). */
const lexemes = new TextLexemes();

/** The index of `words` (searchWords' output, or any text with no letter or digit outside ASCII:
 * keepsOtherCharacters); null when the database has to read it. */
function indexOf(words: string): SearchIndex | null {
  const pairs = lexemes.read(words);
  return pairs && { vector: lexemes.vector(), pairs: sortedUnique(pairs) };
}

const NOT_ASCII = /[^\x00-\x7f]/;
const EACH_NOT_ASCII = /[^\x00-\x7f]/g;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/** Characters outside ASCII below the surrogates: 0 not looked at yet, 1 a separator to
 * searchWords as to TextLexemes, 2 a letter or digit, which searchWords keeps. */
const otherCharacters = new Uint8Array(0xd800);

/** Whether searchWords keeps a character of `text` outside ASCII (a letter or digit of another
 * script), which TextLexemes would take for a separator. Surrogates and the rest of the code units
 * from there on count as kept, to keep this simple. Most texts have none or a few such characters
 * (`→`, `—`, quotation marks), each looked at once. */
function keepsOtherCharacters(text: string): boolean {
  if (!NOT_ASCII.test(text)) return false;
  EACH_NOT_ASCII.lastIndex = 0;
  for (let m = EACH_NOT_ASCII.exec(text); m !== null; m = EACH_NOT_ASCII.exec(text)) {
    const c = text.charCodeAt(m.index);
    if (c >= 0xd800) return true;
    let kind = otherCharacters[c];
    if (kind === 0) kind = otherCharacters[c] = LETTER_OR_DIGIT.test(String.fromCharCode(c)) ? 2 : 1;
    if (kind === 2) return true;
  }
  return false;
}

/**
 * searchIndex(searchWords(text)) without building the words: one pass over the text itself
 * (searchWords' Unicode-aware replace and the lower-casing of the whole text were ≈ 4 % of an
 * import's reading: docs/benchmarks.md, session 28). Text with letters or digits outside ASCII
 * goes the long way.
 */
export function searchIndexOfText(text: string): SearchIndex | null {
  return keepsOtherCharacters(text) ? searchIndex(searchWords(text)) : indexOf(text);
}

/**
 * What to_tsvector('simple', words) gives, for `words` as searchWords returns them, in binary
 * form, and the pairs of adjacent words a phrase search can match in it; null when the database
 * has to compute the vector.
 */
export function searchIndex(words: string): SearchIndex | null {
  return OUTSIDE_RULES.test(words) ? null : indexOf(words);
}

/** The same vector as a tsvector literal (the database's probe, ingest-settings.ts). */
export function searchVector(words: string): string | null {
  return OUTSIDE_RULES.test(words) || lexemes.read(words) === null ? null : lexemes.literal();
}

// Word pairs (migration 0020, db/queries/task-search.ts phraseScope). PostgreSQL matches a phrase
// `a <-> b` on the positions in a task's vector, which its GIN index does not keep: every task
// with both words is read. A task's row in task_search also lists hashes of its adjacent word
// pairs — only those its parent's text lacks, when the reader knows the parent's (a child
// repeats most of its parent's text) — so that the tasks a phrase can match are found from the
// few that brought each of its pairs into their lineage, and their descendants.

/** The pairs of a task whose words are not read here: it stands for every pair. */
export const PAIRS_UNKNOWN: readonly number[] = [0];

/** sortedUnique's set of the values seen (0 is an empty slot), kept between calls. */
let seenTable = new Int32Array(4096);

/** The distinct values of `values` (none of them 0: wordPair never is), sorted. Repeats are
 * dropped first through an open-addressing set (the values are hashes already), so that only the
 * distinct ones are sorted: a task's text repeats about half of its word pairs. */
function sortedUnique(values: Int32Array): Int32Array {
  let size = seenTable.length;
  while (size < values.length * 2) size *= 2;
  if (size === seenTable.length) seenTable.fill(0);
  else seenTable = new Int32Array(size);
  const table = seenTable;
  const mask = size - 1;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    let slot = v & mask;
    for (let t = table[slot]!; t !== v; slot = (slot + 1) & mask, t = table[slot]!) {
      if (t === 0) {
        table[slot] = v;
        values[n++] = v;
        break;
      }
    }
  }
  return values.subarray(0, n).sort().slice();
}

/** The values of sorted `of` that sorted `without` lacks. */
export function pairsMissing(of: Int32Array, without: Int32Array): Int32Array {
  const out = new Int32Array(of.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < of.length; i++) {
    const v = of[i] as number;
    while (j < without.length && (without[j] as number) < v) j++;
    if (j >= without.length || without[j] !== v) out[n++] = v;
  }
  return out.slice(0, n);
}

/**
 * The word pairs of a phrase as a search term (searchWords' output, lib/tasks/search.ts), hashed
 * as searchIndex hashes a task's; null when the term is one word, or when PostgreSQL could read
 * its words otherwise than searchIndex (then it has no pairs to look up).
 */
export function phrasePairs(term: string): number[] | null {
  if (OUTSIDE_RULES.test(term)) return null;
  const words = term.toLowerCase().split(/[ _]+/).filter((w) => w !== "");
  if (words.length < 2 || words.some((w) => w.length > MAX_WORD || SCIENTIFIC.test(w))) return null;
  const out = new Set<number>();
  for (let i = 1; i < words.length; i++) out.add(wordPair(wordHash(words[i - 1] as string), wordHash(words[i] as string)));
  return [...out];
}

/** A text exercising every rule above; RunWriter compares the database's vector of it with ours. */
export const SEARCH_VECTOR_PROBE = [
  "Create app out 2 txt test_outputs __init__ a_b_c X11 x86_64 0x1F 007 123abc abc123 1e 12E e2e",
  "UPPER lower MiXeD Z9 9z 1_2 3d 10 100000000000000000000",
  Array.from({ length: 300 }, () => "again").join(" "),
].join(" ");
