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

/** A task's search index as the reader builds it (searchIndex). */
export interface SearchIndex {
  /** what to_tsvector('simple', words) gives, in tsvector's binary form (what COPY … (FORMAT
   * binary) sends: db/queries/ingest.ts), lexemes sorted as PostgreSQL keeps them */
  vector: Uint8Array;
  /** the hashes of every pair of adjacent words (wordPair), sorted, each once */
  pairs: Int32Array;
}

/** A lexeme of a text, its hash (wordHash) and its positions. */
interface Lexeme {
  word: string;
  hash: number;
  positions: number[];
}

interface Words {
  /** in the order of their first positions */
  lexemes: Lexeme[];
  pairs: Int32Array;
}

/** The words' lexemes with their positions, and their word pairs; null when the database has to
 * read them. */
function readWords(words: string): Words | null {
  if (OUTSIDE_RULES.test(words)) return null;
  // After OUTSIDE_RULES the tokens are the runs of [A-Za-z0-9] between spaces and `_`.
  return readTokens(words);
}

/** readTokens' table of lexeme numbers (1-based; 0 is empty) by hash, kept between calls (it only
 * grows: a task with more distinct words than any before it makes it larger). */
let lexemeTable = new Int32Array(1024);

function tableOf(lexemes: readonly Lexeme[], size: number): Int32Array<ArrayBuffer> {
  const table = new Int32Array(size);
  const mask = size - 1;
  lexemes.forEach((l, i) => {
    let slot = l.hash & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = i + 1;
  });
  return table;
}

/** Whether the token text[start, end) is `word`, letters compared lower-cased. */
function isWord(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(start + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** SCIENTIFIC for the token text[start, end): digits, an `e` and a digit. */
function isScientific(text: string, start: number, end: number): boolean {
  let at = start;
  while (at < end && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
  if (at === start || at + 1 >= end || (text.charCodeAt(at) | 32) !== 101) return false;
  const next = text.charCodeAt(at + 1);
  return next >= 48 && next <= 57;
}

/**
 * The lexemes, positions and word pairs of the tokens of `text`: its runs of [A-Za-z0-9], whatever
 * lies between them. For searchWords' output (runs of letters, digits and `_` between spaces) and
 * for any text alike whose characters outside ASCII are not letters or digits (keepsOtherCharacters),
 * since searchWords only turns runs of the rest into spaces.
 * A token is found among the lexemes by the hash its word pair needs anyway (an open-addressing
 * table of lexeme numbers) and compared in place: only a new lexeme becomes a string (a task's
 * ≈ 2,500 tokens are ≈ 400 lexemes).
 */
function readTokens(text: string): Words | null {
  const lexemes: Lexeme[] = [];
  let table = lexemeTable;
  table.fill(0);
  // A word pair for every position after the first: at most one per two characters.
  if (pairBuffer.length < text.length / 2) pairBuffer = new Int32Array(Math.ceil(text.length / 2));
  const pairs = pairBuffer;
  let pairCount = 0;
  let previous = 0;
  let position = 0;
  const length = text.length;
  let i = 0;
  for (;;) {
    // Past the separators (TOKEN_CHARACTER 0: anything but ASCII letters and digits)…
    let c = 0;
    while (i < length && TOKEN_CHARACTER[(c = text.charCodeAt(i))] === 0) i++;
    if (i >= length) break;
    // …to the end of the token.
    const start = i;
    let hash = FNV_OFFSET;
    do {
      hash = Math.imul(hash ^ TOKEN_CHARACTER[c]!, FNV_PRIME);
      i++;
    } while (i < length && TOKEN_CHARACTER[(c = text.charCodeAt(i))] !== 0);
    if (i - start > MAX_WORD || (text.charCodeAt(start) <= 57 && isScientific(text, start, i))) return null;
    position += 1;
    if (position > MAX_POSITION) return null;
    const mask = table.length - 1;
    let slot = hash & mask;
    let lexeme: Lexeme | undefined;
    for (let n = table[slot]!; n !== 0; slot = (slot + 1) & mask, n = table[slot]!) {
      const known = lexemes[n - 1]!;
      if (known.hash === hash && isWord(known.word, text, start, i)) {
        lexeme = known;
        break;
      }
    }
    if (lexeme === undefined) {
      lexemes.push({ word: text.slice(start, i).toLowerCase(), hash, positions: [position] });
      table[slot] = lexemes.length;
      // Kept at most half full, so that a probe ends soon at an empty slot.
      if (lexemes.length * 2 > table.length) table = lexemeTable = tableOf(lexemes, table.length * 2);
    } else if (lexeme.positions.length < MAX_POSITIONS) lexeme.positions.push(position);
    if (position > 1) pairs[pairCount++] = wordPair(previous, hash);
    previous = hash;
  }
  return { lexemes, pairs: sortedUnique(pairs.subarray(0, pairCount)) };
}

/** Each UTF-16 code unit's character as a token holds it (ASCII letters lower-cased, digits), or 0
 * for a separator: everything else. */
const TOKEN_CHARACTER = new Uint8Array(65_536);
for (let c = 48; c <= 57; c++) TOKEN_CHARACTER[c] = c;
for (let c = 97; c <= 122; c++) TOKEN_CHARACTER[c] = TOKEN_CHARACTER[c - 32] = c;

/** readTokens' word pairs before sortedUnique, kept between calls (it only grows). */
let pairBuffer = new Int32Array(8192);

const NOT_ASCII = /[^\x00-\x7f]/;
const EACH_NOT_ASCII = /[^\x00-\x7f]/g;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/** Characters outside ASCII below the surrogates: 0 not looked at yet, 1 a separator to
 * searchWords as to readTokens, 2 a letter or digit, which searchWords keeps. */
const otherCharacters = new Uint8Array(0xd800);

/** Whether searchWords keeps a character of `text` outside ASCII (a letter or digit of another
 * script), which readTokens would take for a separator. Surrogates and the rest of the code units
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
  if (keepsOtherCharacters(text)) return searchIndex(searchWords(text));
  const read = readTokens(text);
  return read && { vector: binaryVector(read.lexemes), pairs: read.pairs };
}

/**
 * tsvector's binary form (PostgreSQL's tsvectorrecv): the lexeme count (int32), then per lexeme
 * its bytes and a NUL, its position count (uint16) and each position (uint16; weight D is 0).
 * Lexemes in PostgreSQL's order (bytes compared, a prefix first), which for the ASCII lexemes
 * readWords admits is JavaScript's string order; the database would sort them otherwise.
 */
function binaryVector(lexemes: readonly Lexeme[]): Uint8Array {
  const sorted = sortedLexemes(lexemes);
  let size = 4;
  for (const l of sorted) size += l.word.length + 3 + 2 * l.positions.length;
  const out = Buffer.allocUnsafe(size);
  let at = out.writeInt32BE(sorted.length, 0);
  // Byte by byte: Buffer's write calls cost more than the bytes (ASCII words, 14-bit positions).
  for (const { word, positions } of sorted) {
    for (let k = 0; k < word.length; k++) out[at++] = word.charCodeAt(k);
    out[at++] = 0;
    out[at++] = positions.length >> 8;
    out[at++] = positions.length & 0xff;
    for (const p of positions) {
      out[at++] = p >> 8;
      out[at++] = p & 0xff;
    }
  }
  return out;
}

/** Characters of a lexeme that sortedLexemes orders by number: base 37, a word's end 0. */
const KEY_CHARACTERS = 7;
/** Lexemes of a text are fewer than this (each has a position up to MAX_POSITION). */
const LEXEME_LIMIT = MAX_POSITION + 1;

/**
 * The lexemes in string order. Each gets a number from its first KEY_CHARACTERS characters (digits
 * 1–10, letters 11–36, 0 past the end: the order of their bytes, a prefix first) times
 * LEXEME_LIMIT plus its index, exact in a double (37^7 × 16,384 < 2^53); a Float64Array sorts
 * those without a comparator, several times faster than comparing the strings. Words that share
 * their first KEY_CHARACTERS characters are then ordered by the whole word.
 */
function sortedLexemes(lexemes: readonly Lexeme[]): Lexeme[] {
  const n = lexemes.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const word = (lexemes[i] as Lexeme).word;
    let key = 0;
    for (let k = 0; k < KEY_CHARACTERS; k++) {
      const c = k < word.length ? word.charCodeAt(k) : 0;
      key = key * 37 + (c === 0 ? 0 : c <= 57 ? c - 47 : c - 86);
    }
    keys[i] = key * LEXEME_LIMIT + i;
  }
  keys.sort();
  const sorted: Lexeme[] = new Array<Lexeme>(n);
  let runStart = 0;
  for (let i = 0; i <= n; i++) {
    if (i < n) sorted[i] = lexemes[keys[i]! % LEXEME_LIMIT] as Lexeme;
    if (i === n || Math.floor(keys[i]! / LEXEME_LIMIT) !== Math.floor(keys[runStart]! / LEXEME_LIMIT)) {
      if (i - runStart > 1) {
        const run = sorted.slice(runStart, i).sort((a, b) => (a.word < b.word ? -1 : 1));
        for (let k = 0; k < run.length; k++) sorted[runStart + k] = run[k] as Lexeme;
      }
      runStart = i;
    }
  }
  return sorted;
}

/**
 * What to_tsvector('simple', words) gives, for `words` as searchWords returns them, in binary
 * form, and the pairs of adjacent words a phrase search can match in it; null when the database
 * has to compute the vector.
 */
export function searchIndex(words: string): SearchIndex | null {
  const read = readWords(words);
  return read && { vector: binaryVector(read.lexemes), pairs: read.pairs };
}

/** The same vector as a tsvector literal (the database's probe, ingest-settings.ts). */
export function searchVector(words: string): string | null {
  const read = readWords(words);
  if (read === null) return null;
  const parts: string[] = [];
  for (const { word, positions } of read.lexemes) parts.push(`'${word}':${positions.join(",")}`);
  return parts.join(" ");
}

// Word pairs (migration 0020, db/queries/task-search.ts phraseScope). PostgreSQL matches a phrase
// `a <-> b` on the positions in a task's vector, which its GIN index does not keep: every task
// with both words is read. A task's row in task_search also lists hashes of its adjacent word
// pairs — only those its parent's text lacks, when the reader knows the parent's (a child
// repeats most of its parent's text) — so that the tasks a phrase can match are found from the
// few that brought each of its pairs into their lineage, and their descendants.

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** The pair of two words' FNV-1a hashes, as an int4 that is never 0 (0 marks a task whose
 * pairs are not known: PAIRS_UNKNOWN). */
export function wordPair(first: number, second: number): number {
  let h = Math.imul(first ^ Math.imul(second, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h === 0 ? 1 : h | 0;
}

/** The pairs of a task whose words are not read here: it stands for every pair. */
export const PAIRS_UNKNOWN: readonly number[] = [0];

/** A word's FNV-1a hash, as readTokens and wordPair take it (lower-case words). */
export function wordHash(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h;
}

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
