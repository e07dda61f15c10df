// How the task table's text search reads task_search (migration 0013): which tasks a query
// finds, how a statement matches them (as a set or by walking), and the planner settings it runs
// under. db/queries/tasks.ts builds the table's statements on these.
import { getTableName, sql, type SQL } from "drizzle-orm";
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
 * not checked, left to the caller).
 */
export function searchRowMatch(q: string, positions = true): SQL {
  const terms = searchTerms(q);
  const named = sql`s.task_id = ANY(${tasksNamed(q)})`;
  if (terms.length === 0) return named;
  const { words, exact } = termQueries(terms);
  if (!positions || !needsPositions(terms)) return sql`(s.search @@ ${words} OR ${named})`;
  return sql`((s.search @@ ${words} AND s.search @@ (${exact})) OR ${named})`;
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

export function textMatch(q: string, plan: SearchPlan): SQL {
  const terms = searchTerms(q);
  const byId = sql`${tasks.id} = ANY(${tasksNamed(q)})`;
  if (terms.length === 0) return byId;
  const { exact } = termQueries(terms);
  const ownVector = sql`(SELECT s.search @@ (${exact}) FROM ${taskSearch} s WHERE s.task_id = ${tasks.id})`;
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
export async function searchPlans(q: Db, text: string, stopAfters: number[]): Promise<SearchPlan[]> {
  const terms = searchTerms(text);
  const finite = stopAfters.filter((n) => Number.isFinite(n));
  if (terms.length === 0 || finite.length === 0) return stopAfters.map(() => "set");
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
