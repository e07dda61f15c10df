// How many tasks a filter matches: exact when counting is cheap, a lower bound ("1,000+") when
// it is not. Counting is a bounded `count(*)` over `LIMIT cap + 1` rows (db/queries/tasks.ts);
// this module holds the policy, the SQL lives with the other queries.
import { formatInt } from "@/lib/format/number";
import { needsPositions, searchTerms } from "./search";
import type { TaskFilter } from "./filter";

/**
 * Counting stops after this many matching rows; below it a filter's total is exact. Without a
 * text search no tsvector is read: 2–90 ms at paper scale (68k task rows), whatever the filter.
 */
export const COUNT_CAP = 100_000;

/**
 * A one-word search is answered by the GIN index without reading any tsvector, but each match
 * still costs a visit to its heap row: counting the 68k matches of a word found in every task
 * took 20–65 ms at paper scale, as much as the page. The count stops sooner.
 */
export const WORD_COUNT_CAP = 10_000;

/**
 * A search with a phrase — a quoted part, or a token of several words (`out-2.txt` is
 * `out <-> 2 <-> txt`) — needs word positions, which the GIN index cannot check, so every candidate's tsvector is read and decompressed
 * (≈ 10 µs per task, 15 kB of text each). Counting stops much sooner still.
 */
export const PHRASE_COUNT_CAP = 1_000;

/** Whether full-text search for `q` needs PostgreSQL to recheck each candidate row. */
export function isPhraseSearch(q: string | undefined): boolean {
  if (!q) return false;
  return needsPositions(searchTerms(q));
}

export interface CountCaps {
  /** Filters without a text search. */
  plain: number;
  /** A search for one word. */
  word: number;
  /** A search with a phrase in it. */
  phrase: number;
}

export const COUNT_CAPS: CountCaps = { plain: COUNT_CAP, word: WORD_COUNT_CAP, phrase: PHRASE_COUNT_CAP };

/** The most rows counted for this filter before the total becomes a lower bound. */
export function countCap(filter: Pick<TaskFilter, "q">, caps: CountCaps = COUNT_CAPS): number {
  if (!filter.q || searchTerms(filter.q).length === 0) return caps.plain;
  return isPhraseSearch(filter.q) ? caps.phrase : caps.word;
}

export interface TotalCount {
  /** The exact number of matches, or (when `isEstimate`) a lower bound: at least this many. */
  total: number;
  isEstimate: boolean;
}

/**
 * The total from what the queries saw, or null when a count is needed. A page that is not full
 * ends the list, so its end is the total; an empty page past the start says nothing.
 */
export function totalFromPage(offset: number, rowsOnPage: number, limit: number): TotalCount | null {
  if (rowsOnPage > limit) return null;
  if (rowsOnPage === 0 && offset > 0) return null;
  return { total: offset + rowsOnPage, isEstimate: false };
}

/**
 * The total from a capped count (`count(*)` over at most `cap + 1` rows). `seen` is how many rows
 * the page query has proven to exist (offset + rows fetched), so a deep page never reports fewer.
 */
export function totalFromCappedCount(counted: number, cap: number, seen = 0): TotalCount {
  return counted > cap ? { total: Math.max(cap, seen), isEstimate: true } : { total: counted, isEstimate: false };
}

/** "37,484", or "1,000+" for a lower bound: how a total reads in the interface. */
export function formatTotal(total: number, isEstimate: boolean | undefined): string {
  return isEstimate ? `${formatInt(total)}+` : formatInt(total);
}
