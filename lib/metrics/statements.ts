// Readings of a syntax tree taken top-level statement by top-level statement, each remembered by
// the statement's text. A child task's script repeats its parent's statements and adds a few: its
// tree is still parsed whole (the parse is what decides where statements start and end), but only
// the new statements are walked. Walking a tree costs a call into WASM and a JS object per node;
// at paper scale it costs more than the parse.
import type { Node } from "web-tree-sitter";
import { PrefixMiss, type TopLevel } from "./script-parse";

/** A statement's reading, and where the statement starts in the text its tree was parsed from. */
export interface StatementReading<R> {
  reading: R;
  startIndex: number;
  startRow: number;
}

/**
 * Remembers the reading of each statement by its node type and text, for about `capacity`
 * characters of statement text. `read` must depend on the statement's subtree alone and give
 * positions relative to the statement's start (its `startIndex` and `startPosition.row`): the same
 * text can stand anywhere in another script. Readings are shared between scripts: callers only
 * read them.
 *
 * Two generations instead of a strict LRU: a hit is one map lookup (a lookup keyed by a long,
 * fresh string costs a hash of all of it, and an LRU's refresh costs two more map operations).
 * When the young generation holds half the capacity it becomes the old one; an old entry read
 * again moves back to the young.
 */
export class StatementMemo<R> {
  private young = new Map<string, R>();
  private old = new Map<string, R>();
  private youngChars = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly capacity: number) {}

  /** The reading of each of a script's statements (lib/metrics/script-parse `withStatements`), in
   * order. A statement without a node must have been read before: `PrefixMiss` otherwise. */
  readAll(statements: readonly TopLevel[], read: (node: Node) => R): StatementReading<R>[] {
    return statements.map((s) => ({ reading: this.read(s, read), startIndex: s.startIndex, startRow: s.startRow }));
  }

  /** The statement's reading: remembered, or read from its node. `valid` (when given) may refuse a
   * remembered reading (one that depends on more than the statement's text), which is then read
   * again. */
  read(statement: TopLevel, read: (node: Node) => R, valid?: (reading: R) => boolean): R {
    const { key, node } = statement;
    const young = this.young.get(key);
    if (young !== undefined && (!valid || valid(young))) {
      this.hits++;
      return young;
    }
    const old = young === undefined ? this.old.get(key) : undefined;
    if (old !== undefined && (!valid || valid(old))) {
      this.hits++;
      this.keep(key, old);
      return old;
    }
    if (node === null) throw new PrefixMiss();
    this.misses++;
    const reading = read(node);
    this.keep(key, reading);
    return reading;
  }

  private keep(key: string, reading: R): void {
    if (this.youngChars + key.length > this.capacity / 2) {
      this.old = this.young;
      this.young = new Map();
      this.youngChars = 0;
    }
    this.young.set(key, reading);
    this.youngChars += key.length;
  }

  /** statements remembered (an entry in both generations counts twice) */
  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
    this.youngChars = 0;
    this.hits = 0;
    this.misses = 0;
  }
}
