// How the task table's text search reads task_search (migration 0013): which tasks a query
// finds, how a statement matches them (as a set or by walking), and the planner settings it runs
// under. db/queries/tasks.ts builds the table's statements on these.
import { getTableName, sql, type SQL } from "drizzle-orm";
import { phrasePairs } from "@/lib/ingest/search-vector";
import { needsPositions, searchTerms } from "@/lib/tasks/search";
import { execRows, type Db } from "../client";
import { runs, tasks, taskSearch } from "../schema";

/**
 * A statement that stops after `n` matches walks the table checking each task it meets against
 * its own vector only when the words are common enough: matches² > WALK_COST × n × tasks. Else it
 * first finds the ids of all the tasks that match. Per task, on the machine of
 * docs/benchmarks.md: a vector checked ≈ 7 µs, an id found and hashed ≈ 0.5 µs.
 */
const WALK_COST = 15;

/** The ids of the tasks whose ext_id is `q`, in any run (the runs' (run_id, ext_id) index). */
const tasksNamed = (q: string): SQL =>
  sql`ARRAY(SELECT t.id FROM ${tasks} t WHERE t.ext_id = ${q} AND t.run_id = ANY(ARRAY(SELECT r.id FROM ${runs} r)))`;

/** Every term of `q` as one tsquery of words (no positions) and as phrases (positions). */
function termQueries(terms: string[]): { words: SQL; exact: SQL } {
  return {
    words: sql`plainto_tsquery('simple', ${terms.join(" ")})`,
    exact: sql.join(terms.map((t) => sql`phraseto_tsquery('simple', ${t})`), sql` && `),
  };
}

/**
 * A row `s` of task_search that `q` finds: its text has every term of `q` (lib/tasks/search.ts),
 * or its task's id is `q`. The index holds punctuation-split words (lib/ingest), so "out-2.txt"
 * is the phrase out 2 txt. Every task has its one row in task_search (db/queries/ingest.ts).
 * Read through the GIN index and the primary key (a BitmapOr), with planTextSearch; word
 * positions, for a phrase, are checked on the rows found, one vector each (`positions` false:
 * not checked, left to the caller). Within a phrase scope (phraseScope) only the scope's rows are
 * read, each against its phrases, positions included.
 */
export function searchRowMatch(q: string, positions = true, scope: PhraseScope = null): SQL {
  const terms = searchTerms(q);
  const named = sql`s.task_id = ANY(${tasksNamed(q)})`;
  if (terms.length === 0) return named;
  const { words, exact } = termQueries(terms);
  // Within a phrase scope, each task's own vector is read once: the phrases hold every word.
  if (scope) return sql`((s.task_id = ANY(${scope}) AND s.search @@ (${exact})) OR ${named})`;
  if (!positions || !needsPositions(terms)) return sql`(s.search @@ ${words} OR ${named})`;
  return sql`((s.search @@ ${words} AND s.search @@ (${exact})) OR ${named})`;
}

/**
 * The ids of the only tasks a search's phrases can match, as an int4[] literal, or null: no
 * narrowing (phraseScope). Only ever a superset of the matches; positions are still checked.
 */
export type PhraseScope = SQL | null;

/** A phrase pair brought in by at most this many tasks narrows a search (phraseScope)… */
const SCOPE_MAX_INTRODUCERS = 1000;
/** …unless the tasks under them are more than this: then the phrase is common enough for the
 * statements to find their matches soon without it, and a longer list costs more than it saves. */
const SCOPE_MAX_TASKS = 6000;

/**
 * The tasks a search's phrases can match, found from their word pairs (migration 0020): a task
 * whose text has the adjacent words `a b` lists their pair, or descends from one that does (a
 * task lists only the pairs its parent lacks; {0} stands for every pair). For the rarest pair of
 * the search's phrases, when at most SCOPE_MAX_INTRODUCERS tasks bring it in, the ids of the
 * tasks under those (their materialized paths' ranges) — null when no pair is that rare, the
 * tasks are too many, or the search has no phrase: then the search reads as before.
 * A phrase whose words are common but never adjacent has no task bringing its pair in, so
 * nothing is left to check.
 *
 * Each step is its own statement, and the ids reach the search's statements as a literal: as
 * one subquery, the planner joined it the wrong way round (every candidate's ancestors found by a
 * path range: seconds), or under the LIMIT scanned task_search reading every row's pairs.
 */
export async function phraseScope(q: Db, text: string): Promise<PhraseScope> {
  const hashes = [...new Set(searchTerms(text).flatMap((t) => phrasePairs(t) ?? []))];
  if (hashes.length === 0) return null;
  const counts = await execRows<{ pair: number; n: number }>(
    q,
    sql`SELECT h AS pair, (SELECT count(*)::int FROM (SELECT 1 FROM ${taskSearch} s WHERE s.pairs && ARRAY[h, 0]
          LIMIT ${SCOPE_MAX_INTRODUCERS + 1}) AS c) AS n
        FROM unnest(${`{${hashes.join(",")}}`}::int[]) AS h`,
  );
  const [rarest] = counts.sort((a, b) => a.n - b.n);
  if (!rarest || rarest.n > SCOPE_MAX_INTRODUCERS) return null;
  // The tasks bringing it in, by materialized path ("/12/57/301/"); one under another is covered.
  const brought = await execRows<{ path: string }>(
    q,
    sql`SELECT a.path FROM ${taskSearch} i JOIN ${tasks} a ON a.id = i.task_id WHERE i.pairs && ${`{${rarest.pair},0}`}::int[]`,
  );
  const tops: string[] = [];
  for (const { path } of brought.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const last = tops[tops.length - 1];
    if (last === undefined || !path.startsWith(last)) tops.push(path);
  }
  if (tops.length === 0) return sql.raw(`'{}'::int[]`);
  // Each one's subtree: its path's range (text_pattern_ops index); "/12/" < "/12/…" < "/120".
  const rows = await execRows<{ id: number }>(
    q,
    sql`SELECT d.id FROM unnest(string_to_array(${tops.join(" ")}, ' ')) AS b(path)
        JOIN ${tasks} d ON d.path ~>=~ b.path AND d.path ~<~ (left(b.path, -1) || '0')
        LIMIT ${SCOPE_MAX_TASKS + 1}`,
  );
  if (rows.length > SCOPE_MAX_TASKS) return null;
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  if (!ids.every(Number.isSafeInteger)) return null;
  return sql.raw(`'{${ids.join(",")}}'::int[]`);
}

/**
 * How a statement finds the tasks of a text search:
 * - "set": the ids of every task with the words come from the GIN index (and the tasks named
 *   `q` from the primary key), found on their own behind an `OFFSET 0` fence and joined to the
 *   tasks as a set, a hash semi-join, ≈ 0.25 µs per id at paper scale. For a phrase, positions
 *   are then checked on the tasks the statement meets, one vector each, so a statement that
 *   stops early (a page, a capped count) reads few vectors.
 * - "walk": each task the statement meets is checked against its own vector: for words in most
 *   tasks and a statement that stops after a few matches (searchPlans).
 *
 * The vectors live in task_search (migration 0013). The planner costs `@@` as if it were free,
 * while each vector it checks is ≈ 15 kB to decompress: given a plain join it checks them one by
 * one for thousands of tasks (for a LIMIT, a merge join along task_search's primary key), hence
 * the fence. And no `OR` or `CASE` around the set: that makes it a hashed subplan, twice as slow
 * per id as the semi-join.
 */
export type SearchPlan = "set" | "walk";

export function textMatch(q: string, plan: SearchPlan, scope: PhraseScope = null): SQL {
  const terms = searchTerms(q);
  const byId = sql`${tasks.id} = ANY(${tasksNamed(q)})`;
  if (terms.length === 0) return byId;
  const { exact } = termQueries(terms);
  const ownVector = sql`(SELECT s.search @@ (${exact}) FROM ${taskSearch} s WHERE s.task_id = ${tasks.id})`;
  // A phrase scope is a short list of ids (phraseScope): the statement checks the tasks it meets
  // against it (hashed), and reads the vectors of those in it only.
  if (scope) return sql`((${tasks.id} = ANY(${scope}) AND ${ownVector}) OR ${byId})`;
  if (plan === "walk") return sql`(${ownVector} OR ${byId})`;
  const inSet = sql`${tasks.id} IN (SELECT s.task_id FROM ${taskSearch} s WHERE ${searchRowMatch(q, false)} OFFSET 0)`;
  return needsPositions(terms) ? sql`${inSet} AND (${ownVector} OR ${byId})` : inSet;
}

/**
 * For each of `stopAfters` (a statement that ends after that many matching tasks; Infinity: it
 * reads every match), whether it should walk (textMatch). Decided here, before the statements,
 * so that each is planned with one way of matching: one query counts the words' matches up to
 * the largest number that would make walking pay, at most the table's size (its statistics).
 */
export async function searchPlans(q: Db, text: string, stopAfters: number[], scope: PhraseScope = null): Promise<SearchPlan[]> {
  const terms = searchTerms(text);
  const finite = stopAfters.filter((n) => Number.isFinite(n));
  // Within a phrase scope the statements match one way only (textMatch).
  if (terms.length === 0 || finite.length === 0 || scope) return stopAfters.map(() => "set");
  // The matches are counted only as far as the largest threshold a statement could reach.
  const [row] = await execRows<{ tasks: number; matches: number }>(
    q,
    sql`SELECT w.tasks, (SELECT count(*)::int FROM (SELECT 1 FROM ${taskSearch} WHERE ${taskSearch.search} @@ ${termQueries(terms).words} LIMIT w.n) AS m) AS matches
        FROM (SELECT c.tasks, coalesce(max(t.n) FILTER (WHERE t.n <= c.tasks), 0)::int AS n
              FROM (SELECT greatest(reltuples, 1)::float8 AS tasks FROM pg_class WHERE oid = ${getTableName(taskSearch)}::regclass) AS c,
                   LATERAL (SELECT ceil(sqrt(${WALK_COST}::float8 * stop * c.tasks)) AS n FROM unnest(${`{${finite.join(",")}}`}::int[]) AS stop) AS t
              GROUP BY c.tasks) AS w`,
  );
  const tasksSeen = Number(row?.tasks ?? 1);
  const matches = Number(row?.matches ?? 0);
  return stopAfters.map((n) => {
    if (!Number.isFinite(n)) return "set";
    const needed = Math.ceil(Math.sqrt(WALK_COST * n * tasksSeen));
    return needed <= tasksSeen && matches >= needed ? "walk" : "set";
  });
}

const PLANNER_SETTINGS = ["enable_seqscan", "jit", "max_parallel_workers_per_gather"] as const;

/**
 * Planner settings for the statements of a text search, until the transaction ends, or until the
 * returned function puts back the values they had (for a caller's longer transaction). No
 * sequential scans: the matching ids come from the GIN index, not from decompressing every
 * vector. No JIT, whose threshold the disabled scans' cost estimates can cross (0.1–0.8 s of
 * compiling). No parallel workers: each would hash all the matching ids again.
 */
export async function planTextSearch(tx: Db): Promise<() => Promise<void>> {
  // The old values are read (the CTE's row) before the new ones are set (the outer select list).
  const [before] = await execRows<Record<(typeof PLANNER_SETTINGS)[number], string>>(
    tx,
    sql`WITH before AS MATERIALIZED (
          SELECT current_setting('enable_seqscan') AS enable_seqscan, current_setting('jit') AS jit,
                 current_setting('max_parallel_workers_per_gather') AS max_parallel_workers_per_gather)
        SELECT before.*, set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true),
               set_config('max_parallel_workers_per_gather', '0', true)
        FROM before`,
  );
  return async () => {
    if (!before) return;
    const sets = PLANNER_SETTINGS.map((name) => sql`set_config(${name}, ${before[name]}, true)`);
    await tx.execute(sql`SELECT ${sql.join(sets, sql`, `)}`);
  };
}
