// An import's rows of task_search (db/queries/ingest.ts): the reader's vector, sent in binary by
// COPY, or the text the database makes its vector of; and the word pairs that go with it.
import { sql } from "drizzle-orm";
import { PAIRS_UNKNOWN } from "@/lib/ingest/search-vector";
import type { Db } from "../client";
import { taskSearch } from "../schema";
import { copyRows, insertJson } from "./bulk";
import { SEARCH_VECTOR, TASK_SEARCH, type TaskInput } from "./ingest-rows";

/** A row of task_search as it travels: the vector, or the text the database makes it from. */
export interface SearchRow {
  taskId: number;
  runId: number;
  searchText: string | null;
  /** tsvector's binary form (lib/ingest/search-vector.ts) */
  searchVector: Uint8Array | null;
  /** word-pair hashes (lib/ingest/search-vector.ts); PAIRS_UNKNOWN stands for every pair */
  pairs: readonly number[];
}

/**
 * A task's row of task_search. Only one of the two travels: the reader's vector (`useVector`: the
 * database builds the same vectors), or the text for to_tsvector. Its word pairs with the
 * reader's vector, when they are all there or it is placed under the parent whose pairs they
 * leave out (`parentExtId`; undefined: a task written again); else PAIRS_UNKNOWN.
 */
export function searchRow(taskId: number, runId: number, t: TaskInput, parentExtId: string | null | undefined, useVector: boolean): SearchRow {
  const vector = useVector ? t.searchVector : null;
  if (vector === null && t.searchText === null) throw new Error(`task ${t.row.extId}: no search text and no search vector`);
  const from = t.searchPairsFrom ?? null;
  const pairs = vector !== null && t.searchPairs && parentExtId !== undefined && (from === null || from === parentExtId) ? t.searchPairs : PAIRS_UNKNOWN;
  return { taskId, runId, searchText: vector === null ? t.searchText : null, searchVector: vector, pairs };
}

/**
 * Writes rows of task_search: those with the reader's vector by binary COPY (a tsvector literal
 * parsed by the database out of a JSON document was ≈ half of this table's cost, the import's
 * largest at the database: docs/benchmarks.md, session 28), the others as text. `replace`: the
 * tasks may have rows already (changed tasks), which go first.
 */
export async function writeSearchRows(tx: Db, rows: SearchRow[], replace: boolean): Promise<void> {
  const copied = rows.filter((r) => r.searchVector !== null);
  const texts = rows.filter((r) => r.searchVector === null);
  if (copied.length > 0 && replace) {
    await tx.execute(sql`DELETE FROM ${taskSearch} WHERE task_id = ANY(${`{${copied.map((r) => r.taskId).join(",")}}`}::int[])`);
  }
  const s = taskSearch;
  await copyRows(tx, s, [s.taskId, s.runId, s.search, s.pairs], copied, (r) => [
    { int4: r.taskId },
    { int4: r.runId },
    { raw: r.searchVector as Uint8Array },
    { int4s: r.pairs },
  ]);
  if (texts.length > 0) {
    await tx.execute(
      insertJson(taskSearch, TASK_SEARCH, texts, {
        extra: SEARCH_VECTOR,
        tail: replace ? sql`ON CONFLICT (task_id) DO UPDATE SET search = EXCLUDED.search, pairs = EXCLUDED.pairs` : undefined,
      }),
    );
  }
}
