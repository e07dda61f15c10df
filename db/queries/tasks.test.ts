// The task table's totals: exact below the counting cap, a flagged lower bound above it.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows } from "@/db/client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { SORT_COLUMNS } from "@/lib/tasks/filter";
import { searchTerms } from "@/lib/tasks/search";
import { PHRASE_COUNT_CAP } from "@/lib/tasks/total";
import { searchPlans } from "./task-search";
import { encodeCursor, getFacets, listTasks } from "./tasks";
import { countTasks } from "./views";

const N = 1_200; // more than PHRASE_COUNT_CAP, so the real phrase cap is exercised too
const small = { plain: 100, word: 60, phrase: 40 };

describe.each(BACKENDS)("task list totals on %s", (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    const db = database.db;
    await db.execute(sql`INSERT INTO runs (name, format) VALUES ('big', 'native'), ('small', 'native')`);
    // Every task says "set euo pipefail"; odd ones also "sqlite3", every 100th "crontab".
    await db.execute(sql`
      INSERT INTO tasks (run_id, ext_id, status, content_hash, round, operator, category, solution_lines)
      SELECT (SELECT id FROM runs WHERE name = 'big'), 'big-' || g, CASE WHEN g % 4 = 0 THEN 'rejected' ELSE 'accepted' END,
             'h' || g, g % 16, 'op-' || (g % 3), 'cat-' || (g % 2), g
      FROM generate_series(1, ${N}) AS g`);
    await db.execute(sql`
      INSERT INTO task_search (task_id, run_id, search)
      SELECT id, run_id, to_tsvector('simple', 'set euo pipefail ' || CASE WHEN g % 2 = 1 THEN 'sqlite3 ' ELSE '' END ||
                                       CASE WHEN g % 100 = 0 THEN 'crontab' ELSE '' END)
      FROM (SELECT id, run_id, substring(ext_id FROM 5)::int AS g FROM tasks WHERE run_id = (SELECT id FROM runs WHERE name = 'big')) AS t`);
    await db.execute(sql`
      INSERT INTO tasks (run_id, ext_id, status, content_hash, round, operator)
      SELECT (SELECT id FROM runs WHERE name = 'small'), 'small-' || g, 'accepted', 's' || g, 1, 'op-x'
      FROM generate_series(1, 7) AS g`);
    await db.execute(sql`
      INSERT INTO task_search (task_id, run_id, search)
      SELECT id, run_id, to_tsvector('simple', 'set euo pipefail') FROM tasks WHERE run_id = (SELECT id FROM runs WHERE name = 'small')`);
    // Half without pass@k (rejected tasks have none), with ties, for the descending sorts.
    await db.execute(sql`INSERT INTO runs (name, format) VALUES ('nulls', 'native')`);
    await db.execute(sql`
      INSERT INTO tasks (run_id, ext_id, status, content_hash, round, pass_at_k, commands)
      SELECT (SELECT id FROM runs WHERE name = 'nulls'), 'n-' || g, 'accepted', 'n' || g, 2,
             CASE WHEN g % 2 = 0 THEN (g % 5) / 4.0 END, g % 3
      FROM generate_series(1, 23) AS g`);
    await db.execute(sql`ANALYZE tasks, task_search`);
  });
  afterAll(async () => {
    await database.close();
  });

  test("totals below the cap are exact", async () => {
    const r = await listTasks(database.db, { run: "big", round: 3, limit: 10 }, small);
    expect(r.total).toBe(75); // g % 16 = 3 for g ≤ 1200
    expect(r.total_is_estimate).toBe(false);
    expect(r.items).toHaveLength(10);
    expect(r.next).not.toBeNull();
    const all = await listTasks(database.db, { run: "big", limit: 50 });
    expect(all).toMatchObject({ total: N, total_is_estimate: false });
    const words = await listTasks(database.db, { run: "big", q: "sqlite3", limit: 50 });
    expect(words).toMatchObject({ total: N / 2, total_is_estimate: false });
  });

  test("above the cap the total is a lower bound and says so", async () => {
    const r = await listTasks(database.db, { run: "big", limit: 10 }, small);
    expect(r).toMatchObject({ total: small.plain, total_is_estimate: true });
    expect(r.next).not.toBeNull();
    const q = await listTasks(database.db, { run: "big", q: "sqlite3", sort: "-solution_lines", limit: 10 }, small);
    expect(q).toMatchObject({ total: small.word, total_is_estimate: true });
    expect(q.items.map((i) => i.solution_lines)).toEqual([1199, 1197, 1195, 1193, 1191, 1189, 1187, 1185, 1183, 1181]);
  });

  test("a phrase search stops counting at the phrase cap", async () => {
    const phrase = await listTasks(database.db, { run: "big", q: '"set -euo pipefail"', limit: 50 });
    expect(phrase).toMatchObject({ total: PHRASE_COUNT_CAP, total_is_estimate: true });
    expect(phrase.items).toHaveLength(50);
    // One word needs no recheck: counted exactly with the default caps.
    const word = await listTasks(database.db, { run: "big", q: "pipefail", limit: 50 });
    expect(word).toMatchObject({ total: N, total_is_estimate: false });
    const phraseSmall = await listTasks(database.db, { run: "big", q: "euo-pipefail", limit: 10 }, small);
    expect(phraseSmall).toMatchObject({ total: small.phrase, total_is_estimate: true });
    const few = await listTasks(database.db, { run: "big", q: '"set euo pipefail" crontab', limit: 5 });
    expect(few).toMatchObject({ total: 12, total_is_estimate: false });
    // Unquoted words must all appear, in any order and place: answered from the index alone.
    expect(await listTasks(database.db, { run: "big", q: "pipefail crontab", limit: 5 })).toMatchObject({ total: 12, total_is_estimate: false });
    expect(await listTasks(database.db, { run: "big", q: "crontab set", limit: 5 })).toMatchObject({ total: 12 });
    // crontab is on even tasks only, sqlite3 on odd ones: no task has both.
    expect(await listTasks(database.db, { run: "big", q: "crontab sqlite3", limit: 5 })).toMatchObject({ total: 0, items: [] });
    const reversed = await listTasks(database.db, { run: "big", q: '"pipefail set"', limit: 5 });
    expect(reversed).toMatchObject({ total: 0, items: [] });
  });

  test("a page that ends the list gives an exact total, whatever the cap", async () => {
    const tiny = { plain: 2, word: 2, phrase: 2 };
    const r = await listTasks(database.db, { run: "small", limit: 50 }, tiny);
    expect(r).toMatchObject({ total: 7, total_is_estimate: false, next: null });
    const last = await listTasks(database.db, { run: "big", round: 3, limit: 10, cursor: encodeCursor(70) }, tiny);
    expect(last).toMatchObject({ total: 75, total_is_estimate: false, next: null, offset: 70 });
    expect(last.items).toHaveLength(5);
    const past = await listTasks(database.db, { run: "big", round: 3, limit: 10, cursor: encodeCursor(500) }, small);
    expect(past).toMatchObject({ total: 75, total_is_estimate: false, next: null, items: [] });
    const none = await listTasks(database.db, { run: "nope", limit: 10 }, tiny);
    expect(none).toMatchObject({ total: 0, total_is_estimate: false, items: [] });
  });

  test("a deep page never reports fewer tasks than it has passed", async () => {
    const r = await listTasks(database.db, { run: "big", limit: 10, cursor: encodeCursor(300) }, small);
    expect(r.offset).toBe(300);
    expect(r).toMatchObject({ total: 311, total_is_estimate: true });
  });

  test("search finds words and exact task ids, with filters and sorts", async () => {
    const crontab = await listTasks(database.db, { q: "crontab", sort: "-solution_lines", limit: 50 });
    expect(crontab.items.map((i) => i.task_id)).toEqual(["big-1200", "big-1100", "big-1000", "big-900", "big-800", "big-700", "big-600", "big-500", "big-400", "big-300", "big-200", "big-100"]);
    expect(crontab).toMatchObject({ total: 12, total_is_estimate: false });
    const rejected = await listTasks(database.db, { q: "crontab", status: "rejected", round: 4, limit: 50 });
    expect(rejected.items.map((i) => i.task_id)).toEqual(["big-100", "big-500", "big-900"]); // g % 16 = 4, g % 4 = 0
    const byId = await listTasks(database.db, { q: "small-3", limit: 50 });
    expect(byId.items.map((i) => i.task_id)).toEqual(["small-3"]);
    expect(byId.total).toBe(1);
  });

  test("sorts put missing values last in both directions, ties by id, across pages", async () => {
    for (const sort of ["-pass_at_k", "pass_at_k", "-commands", "commands", "-id", "id", "-review", "-round"]) {
      const col = { pass_at_k: "pass_at_k", commands: "commands", id: "ext_id", review: "review_state", round: "round" }[sort.replace("-", "")];
      const dir = sort.startsWith("-") ? "DESC" : "ASC";
      const expected = (
        await execRows<{ ext_id: string }>(
          database.db,
          sql.raw(`SELECT ext_id FROM tasks WHERE run_id = (SELECT id FROM runs WHERE name = 'nulls') ORDER BY ${col} ${dir} NULLS LAST, id ${dir}`),
        )
      ).map((r) => r.ext_id);
      const got: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listTasks(database.db, { run: "nulls", sort, limit: 5, cursor });
        got.push(...page.items.map((i) => i.task_id));
        cursor = page.next ?? undefined;
      } while (cursor);
      expect(got, sort).toEqual(expected);
    }
    const top = await listTasks(database.db, { run: "nulls", sort: "-pass_at_k", limit: 50 });
    expect(top.items.slice(0, 2).map((i) => i.pass_at_k)).toEqual([1, 1]);
    expect(top.items.slice(-11).every((i) => i.pass_at_k === null)).toBe(true);
    const deep = await listTasks(database.db, { run: "nulls", sort: "-pass_at_k", limit: 5, cursor: encodeCursor(10) });
    expect(deep.items.map((i) => i.task_id)).toEqual(["n-10", "n-23", "n-21", "n-19", "n-17"]); // the last 0, then the missing
    expect(deep).toMatchObject({ total: 23, total_is_estimate: false, offset: 10 });
  });

  test("every sort, both directions, across runs and within one, pages in the order SQL gives", async () => {
    // Round 2: 75 tasks of 'big' (no pass@k, no review), all 23 of 'nulls' (half without pass@k).
    for (const column of SORT_COLUMNS) {
      const col = column === "id" ? "ext_id" : column === "review" ? "review_state" : column === "flags" ? "open_flags" : column;
      for (const sort of [column, `-${column}`]) {
        for (const run of [undefined, "big"]) {
          const dir = sort.startsWith("-") ? "DESC" : "ASC";
          const expected = (
            await execRows<{ ext_id: string }>(
              database.db,
              sql`SELECT ext_id FROM tasks WHERE round = 2 AND (${run ?? null}::text IS NULL OR run_id = (SELECT id FROM runs WHERE name = ${run ?? ""}))
                  ORDER BY ${sql.raw(`${col} ${dir} NULLS LAST, id ${dir}`)}`,
            )
          ).map((r) => r.ext_id);
          const got: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await listTasks(database.db, { run, round: 2, sort, limit: 20, cursor });
            got.push(...page.items.map((i) => i.task_id));
            cursor = page.next ?? undefined;
          } while (cursor);
          expect(got, `${sort} ${run ?? "all runs"}`).toEqual(expected);
        }
      }
    }
  });

  test("a search leaves the planner settings as it found them, also inside a transaction", async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL max_parallel_workers_per_gather = 1`);
      const r = await listTasks(tx as unknown as typeof database.db, { run: "big", q: "sqlite3", limit: 5 });
      expect(r.total).toBe(N / 2);
      const [setting] = await execRows<{ enable_seqscan: string; workers: string }>(
        tx as unknown as typeof database.db,
        sql`SELECT current_setting('enable_seqscan') AS enable_seqscan, current_setting('max_parallel_workers_per_gather') AS workers`,
      );
      expect(setting).toEqual({ enable_seqscan: "on", workers: "1" });
    });
    const [after] = await execRows<{ enable_seqscan: string }>(database.db, sql`SHOW enable_seqscan`);
    expect(after?.enable_seqscan).toBe("on");
  });

  test("a search walks the table only for common words and a statement that stops early", async () => {
    // 1,207 tasks say pipefail; walking pays for a stop after n when matches² > 15 × n × tasks.
    expect(await searchPlans(database.db, "pipefail", [6, 100, Infinity])).toEqual(["walk", "set", "set"]);
    expect(await searchPlans(database.db, "crontab", [6])).toEqual(["set"]); // 12 matches
    expect(await searchPlans(database.db, '"set euo pipefail"', [6])).toEqual(["walk"]);
    expect(await searchPlans(database.db, "big-7", [6])).toEqual(["set"]); // a phrase of rare words
  });

  test("a search finds the same tasks however it is evaluated: walking the table or hashing the ids", async () => {
    // Small pages walk the table checking each task's vector (the words are in most tasks);
    // larger ones, later ones, orders no index gives and counts hash the matching ids.
    const all = async (q: string, limit: number, sort?: string, run?: string) => {
      const got: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listTasks(database.db, { run, q, sort, limit, cursor }, { plain: 100, word: 100, phrase: 100 });
        got.push(...page.items.map((i) => i.task_id));
        cursor = page.next ?? undefined;
      } while (cursor);
      return got.sort();
    };
    for (const q of ["pipefail", "sqlite3", "crontab set", '"set euo pipefail"', "euo-pipefail", '"pipefail set"', '"euo pipefail" sqlite3', "big-7"]) {
      const terms = searchTerms(q);
      const exact = terms.length ? sql.join(terms.map((t) => sql`phraseto_tsquery('simple', ${t})`), sql` && `) : sql`NULL::tsquery`;
      const expected = (
        await execRows<{ ext_id: string }>(
          database.db,
          sql`SELECT t.ext_id FROM tasks t JOIN task_search s ON s.task_id = t.id
              WHERE t.run_id = (SELECT id FROM runs WHERE name = 'big') AND (s.search @@ (${exact}) OR t.ext_id = ${q})`,
        )
      )
        .map((r) => r.ext_id)
        .sort();
      if (q !== '"pipefail set"') expect(expected.length, q).toBeGreaterThan(0); // that one is never in this order
      const smallPages = await all(q, 5, undefined, "big");
      expect(smallPages, q).toEqual(expected);
      expect(await all(q, 400, "-solution_lines", "big"), q).toEqual(expected);
      expect((await all(q, 400, "-instruction_words")).filter((id) => id.startsWith("big-")), q).toEqual(expected);
      const counted = await listTasks(database.db, { run: "big", q, limit: 5 }, { plain: N, word: N, phrase: N });
      expect(counted.total, q).toBe(expected.length);
    }
  });

  test("a search over every task or a run's is counted in task_search alone, ids included; other filters still count", async () => {
    const db = database.db;
    const wide = { plain: 2 * N, word: 2 * N, phrase: 2 * N };
    // 'big' and 'small' say "set euo pipefail"; 'nulls' has no text.
    expect(await listTasks(db, { q: "pipefail", limit: 5 }, wide)).toMatchObject({ total: N + 7, total_is_estimate: false });
    expect(await listTasks(db, { q: "pipefail", limit: 5 }, small)).toMatchObject({ total: small.word, total_is_estimate: true });
    expect(await listTasks(db, { q: '"set euo pipefail"', limit: 5 }, wide)).toMatchObject({ total: N + 7, total_is_estimate: false });
    expect(await listTasks(db, { q: '"set euo pipefail"', limit: 5 }, small)).toMatchObject({ total: small.phrase, total_is_estimate: true });
    expect(await listTasks(db, { q: "sqlite3", sort: "-instruction_words", limit: 5 }, wide)).toMatchObject({ total: N / 2 });
    expect(await listTasks(db, { q: "pipefail", status: "rejected", limit: 5 }, wide)).toMatchObject({ total: N / 4, total_is_estimate: false });
    expect(await countTasks(db, { q: "small-3", limit: 50 })).toEqual({ total: 1, isEstimate: false });
    expect(await countTasks(db, { q: "crontab", limit: 50 })).toEqual({ total: 12, isEstimate: false });
    expect(await countTasks(db, { q: "crontab", round: 4, limit: 50 })).toEqual({ total: 3, isEstimate: false });
    // Within a run, only its tasks count (task_search.run_id): the page of 5 is full, so these are counted.
    expect(await listTasks(db, { run: "small", q: "pipefail", limit: 5 }, wide)).toMatchObject({ total: 7, total_is_estimate: false });
    expect(await listTasks(db, { run: "small", q: '"set euo pipefail"', limit: 5 }, wide)).toMatchObject({ total: 7, total_is_estimate: false });
    expect(await listTasks(db, { run: "big", q: "pipefail", limit: 5 }, wide)).toMatchObject({ total: N, total_is_estimate: false });
    expect(await countTasks(db, { run: "small", q: "pipefail", limit: 50 })).toEqual({ total: 7, isEstimate: false });
    expect(await countTasks(db, { run: "big", q: "small-3", limit: 50 })).toEqual({ total: 0, isEstimate: false });
    expect(await countTasks(db, { run: "small", q: "small-3", limit: 50 })).toEqual({ total: 1, isEstimate: false });
    expect(await countTasks(db, { run: "no-such-run", q: "pipefail", limit: 50 })).toEqual({ total: 0, isEstimate: false });
  });

  test("facets list operators, categories and the last round", async () => {
    expect(await getFacets(database.db, "big")).toEqual({
      operators: ["op-0", "op-1", "op-2"],
      categories: ["cat-0", "cat-1"],
      max_round: 15,
    });
    expect(await getFacets(database.db, "small")).toEqual({ operators: ["op-x"], categories: [], max_round: 1 });
    expect(await getFacets(database.db)).toEqual({
      operators: ["op-0", "op-1", "op-2", "op-x"],
      categories: ["cat-0", "cat-1"],
      max_round: 15,
    });
    expect(await getFacets(database.db, "nope")).toEqual({ operators: [], categories: [], max_round: 0 });
  });
});
