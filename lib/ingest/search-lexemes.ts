// The lexemes of a task's text as to_tsvector('simple', …) finds them, for ./search-vector: read in
// one pass into typed arrays that are kept between texts, so that reading a text allocates nothing
// per token or per lexeme. A lexeme is where its first token stands in the text: its word is those
// characters lower-cased. (The lexemes as objects, with a string and an array of positions each,
// were 14 % of everything a reader thread allocated: docs/benchmarks.md, session 33.)

/** PostgreSQL keeps at most 255 positions of a lexeme in to_tsvector (MAXNUMPOS - 1)… */
export const MAX_POSITIONS = 255;
/** …and clamps positions at 16383 (MAXENTRYPOS - 1): past that we let it decide. */
export const MAX_POSITION = 16_383;
/** Longer words get notices and special handling (limit 2047 bytes); hand them over. */
export const MAX_WORD = 200;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** A word's FNV-1a hash, as a text's tokens are hashed (lower-case words). */
export function wordHash(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h;
}

/** The pair of two words' FNV-1a hashes, as an int4 that is never 0 (0 marks a task whose
 * pairs are not known: PAIRS_UNKNOWN in ./search-vector). */
export function wordPair(first: number, second: number): number {
  let h = Math.imul(first ^ Math.imul(second, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h === 0 ? 1 : h | 0;
}

/** Each UTF-16 code unit's character as a token holds it (ASCII letters lower-cased, digits), or 0
 * for a separator: everything else. */
export const TOKEN_CHARACTER = new Uint8Array(65_536);
for (let c = 48; c <= 57; c++) TOKEN_CHARACTER[c] = c;
for (let c = 97; c <= 122; c++) TOKEN_CHARACTER[c] = TOKEN_CHARACTER[c - 32] = c;

/** SCIENTIFIC (digits, an `e`, a digit) for the token text[start, end): the default parser reads
 * `1e5x` as the sfloat `1e5` and the word `x`, which the database is left to do. */
function isScientific(text: string, start: number, end: number): boolean {
  let at = start;
  while (at < end && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
  if (at === start || at + 1 >= end || (text.charCodeAt(at) | 32) !== 101) return false;
  const next = text.charCodeAt(at + 1);
  return next >= 48 && next <= 57;
}

/** Characters of a lexeme that the sort orders by number: base 37, a word's end 0. */
const KEY_CHARACTERS = 7;
/** Lexemes of a text are fewer than this (each has a position up to MAX_POSITION). */
const LEXEME_LIMIT = MAX_POSITION + 1;

function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(size);
  out.set(array);
  return out;
}

/**
 * The tokens of one text at a time: its runs of [A-Za-z0-9], whatever lies between them, each a
 * position (1, 2, …) of a lexeme. `read` takes a text; `vector` and `literal` describe the last
 * text read, until the next `read`.
 */
export class TextLexemes {
  private text = "";
  /** lexemes of the text, numbered in the order of their first positions */
  private count = 0;
  /** tokens (positions) of the text */
  private tokens = 0;
  private hash = new Int32Array(512);
  /** where each lexeme's first token starts and ends in the text */
  private start = new Int32Array(512);
  private end = new Int32Array(512);
  /** positions each lexeme keeps (at most MAX_POSITIONS) */
  private kept = new Int32Array(512);
  /** the lexeme of each position (index: position - 1), -1 for a position past a lexeme's
   * MAX_POSITIONS */
  private lexemeAt = new Int32Array(MAX_POSITION);
  /** lexeme numbers + 1 by hash (open addressing; 0 is empty), at most half full */
  private table = new Int32Array(1024);
  /** word pairs of the text (one per position after the first) */
  private pairBuffer = new Int32Array(8192);
  private keys = new Float64Array(512);
  /** where each lexeme's positions start in `positions`, and the positions by lexeme */
  private offsets = new Int32Array(512);
  private positions = new Int32Array(MAX_POSITION);

  /**
   * Reads `text`: the hashes of its pairs of adjacent words (wordPair), one per position after the
   * first, unsorted, in a buffer the next call reuses; null when the database has to read the text
   * (a word longer than MAX_WORD, a token like scientific notation, more than MAX_POSITION tokens).
   * A token is found among the lexemes by the hash its word pair needs anyway and compared in
   * place.
   */
  read(text: string): Int32Array | null {
    this.text = text;
    this.count = 0;
    this.tokens = 0;
    const table = this.table;
    table.fill(0);
    if (this.pairBuffer.length < text.length / 2) this.pairBuffer = new Int32Array(Math.ceil(text.length / 2));
    const pairs = this.pairBuffer;
    let pairCount = 0;
    let previous = 0;
    const length = text.length;
    let i = 0;
    for (;;) {
      // Past the separators (TOKEN_CHARACTER 0)…
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
      if (this.tokens >= MAX_POSITION) return null;
      const lexeme = this.lexemeOf(hash, start, i);
      // A lexeme keeps its first MAX_POSITIONS positions, as to_tsvector does.
      if (this.kept[lexeme]! < MAX_POSITIONS) {
        this.kept[lexeme]!++;
        this.lexemeAt[this.tokens++] = lexeme;
      } else this.lexemeAt[this.tokens++] = -1;
      if (this.tokens > 1) pairs[pairCount++] = wordPair(previous, hash);
      previous = hash;
    }
    return pairs.subarray(0, pairCount);
  }

  /** The number of the lexeme of the token text[start, end) with `hash`, a new one if need be. */
  private lexemeOf(hash: number, start: number, end: number): number {
    const mask = this.table.length - 1;
    let slot = hash & mask;
    for (let n = this.table[slot]!; n !== 0; slot = (slot + 1) & mask, n = this.table[slot]!) {
      if (this.hash[n - 1] === hash && this.sameWord(n - 1, start, end)) return n - 1;
    }
    const lexeme = this.count++;
    if (lexeme >= this.hash.length) {
      const size = this.hash.length * 2;
      this.hash = grown(this.hash, size);
      this.start = grown(this.start, size);
      this.end = grown(this.end, size);
      this.kept = grown(this.kept, size);
    }
    this.hash[lexeme] = hash;
    this.start[lexeme] = start;
    this.end[lexeme] = end;
    this.kept[lexeme] = 0;
    this.table[slot] = lexeme + 1;
    if (this.count * 2 > this.table.length) this.rehash(this.table.length * 2);
    return lexeme;
  }

  private rehash(size: number): void {
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let l = 0; l < this.count; l++) {
      let slot = this.hash[l]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = l + 1;
    }
    this.table = table;
  }

  /** Whether lexeme `l`'s word is the token text[start, end), letters compared lower-cased. */
  private sameWord(l: number, start: number, end: number): boolean {
    const from = this.start[l]!;
    if (this.end[l]! - from !== end - start) return false;
    const text = this.text;
    for (let k = 0; k < end - start; k++) {
      if (TOKEN_CHARACTER[text.charCodeAt(from + k)] !== TOKEN_CHARACTER[text.charCodeAt(start + k)]) return false;
    }
    return true;
  }

  /** Lexeme `l`'s word (lower-case). */
  word(l: number): string {
    return this.text.slice(this.start[l], this.end[l]).toLowerCase();
  }

  /** Fills `positions`: each lexeme's kept positions from `offsets[l]` on, in order. */
  private placePositions(): void {
    if (this.offsets.length < this.count) this.offsets = new Int32Array(this.hash.length);
    let at = 0;
    for (let l = 0; l < this.count; l++) {
      this.offsets[l] = at;
      at += this.kept[l]!;
    }
    const next = this.offsets.slice(0, this.count);
    for (let p = 0; p < this.tokens; p++) {
      const l = this.lexemeAt[p]!;
      if (l >= 0) this.positions[next[l]!++] = p + 1;
    }
  }

  /**
   * The lexeme numbers in string order. Each gets a number from its first KEY_CHARACTERS characters
   * (digits 1–10, letters 11–36, 0 past the end: the order of their bytes, a prefix first) times
   * LEXEME_LIMIT plus its number, exact in a double (37^7 × 16,384 < 2^53); a Float64Array sorts
   * those without a comparator, several times faster than comparing strings. Words that share their
   * first KEY_CHARACTERS characters are then ordered by the whole word.
   */
  private sorted(): Int32Array {
    const n = this.count;
    if (this.keys.length < n) this.keys = new Float64Array(this.hash.length);
    const keys = this.keys.subarray(0, n);
    const text = this.text;
    for (let l = 0; l < n; l++) {
      const from = this.start[l]!;
      const length = this.end[l]! - from;
      let key = 0;
      for (let k = 0; k < KEY_CHARACTERS; k++) {
        const c = k < length ? TOKEN_CHARACTER[text.charCodeAt(from + k)]! : 0;
        key = key * 37 + (c === 0 ? 0 : c <= 57 ? c - 47 : c - 86);
      }
      keys[l] = key * LEXEME_LIMIT + l;
    }
    keys.sort();
    const order = new Int32Array(n);
    let runStart = 0;
    for (let i = 0; i <= n; i++) {
      if (i < n) order[i] = keys[i]! % LEXEME_LIMIT;
      if (i === n || Math.floor(keys[i]! / LEXEME_LIMIT) !== Math.floor(keys[runStart]! / LEXEME_LIMIT)) {
        if (i - runStart > 1) order.subarray(runStart, i).sort((a, b) => this.compareWords(a, b));
        runStart = i;
      }
    }
    return order;
  }

  /** Two lexemes' words compared as PostgreSQL compares them (bytes, a prefix first). */
  private compareWords(a: number, b: number): number {
    const text = this.text;
    const fa = this.start[a]!;
    const fb = this.start[b]!;
    const la = this.end[a]! - fa;
    const lb = this.end[b]! - fb;
    for (let k = 0; k < la && k < lb; k++) {
      const d = TOKEN_CHARACTER[text.charCodeAt(fa + k)]! - TOKEN_CHARACTER[text.charCodeAt(fb + k)]!;
      if (d !== 0) return d;
    }
    return la - lb;
  }

  /**
   * tsvector's binary form (PostgreSQL's tsvectorrecv) of the text read last: the lexeme count
   * (int32), then per lexeme its bytes and a NUL, its position count (uint16) and each position
   * (uint16; weight D is 0), lexemes in PostgreSQL's order.
   */
  vector(): Uint8Array {
    this.placePositions();
    const order = this.sorted();
    let size = 4;
    for (let l = 0; l < this.count; l++) size += this.end[l]! - this.start[l]! + 3 + 2 * this.kept[l]!;
    const out = Buffer.allocUnsafe(size);
    let at = out.writeInt32BE(this.count, 0);
    const text = this.text;
    // Byte by byte: Buffer's write calls cost more than the bytes (ASCII words, 14-bit positions).
    for (let i = 0; i < order.length; i++) {
      const l = order[i]!;
      for (let k = this.start[l]!; k < this.end[l]!; k++) out[at++] = TOKEN_CHARACTER[text.charCodeAt(k)]!;
      out[at++] = 0;
      const kept = this.kept[l]!;
      out[at++] = kept >> 8;
      out[at++] = kept & 0xff;
      for (let p = this.offsets[l]!, last = p + kept; p < last; p++) {
        const position = this.positions[p]!;
        out[at++] = position >> 8;
        out[at++] = position & 0xff;
      }
    }
    return out;
  }

  /** The text read last as a tsvector literal, lexemes in the order of their first positions. */
  literal(): string {
    this.placePositions();
    const parts: string[] = [];
    for (let l = 0; l < this.count; l++) {
      const from = this.offsets[l]!;
      parts.push(`'${this.word(l)}':${Array.from(this.positions.subarray(from, from + this.kept[l]!)).join(",")}`);
    }
    return parts.join(" ");
  }
}
