import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows, type Db } from "@/db/client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { generateRun } from "@/lib/generate";
import { ingestPath } from "@/lib/ingest";
import { phraseScope } from "./task-search";
import { listTasks } from "./tasks";

/** Every task of the run a search finds, through the task table's pages. */
async function found(db: Db, q: string): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let total = -1;
  do {
    const page = await listTasks(db, { run: "ph", q, limit: 200, cursor }, { plain: 100_000, word: 100_000, phrase: 100_000 });
    if (total < 0) total = page.total;
    ids.push(...page.items.map((i) => i.task_id));
    cursor = page.next ?? undefined;
  } while (cursor);
  return { ids: ids.sort(), total };
}

/** What PostgreSQL's own phrase match finds, reading every vector. */
async function truth(db: Db, phrase: string): Promise<string[]> {
  const rows = await execRows<{ ext_id: string }>(
    db,
    sql`SELECT t.ext_id FROM tasks t JOIN task_search s ON s.task_id = t.id WHERE s.search @@ phraseto_tsquery('simple', ${phrase})`,
  );
  return rows.map((r) => r.ext_id).sort();
}

/** The number of tasks phraseScope leaves to check, or null when it does not narrow. */
async function scopeSize(db: Db, q: string): Promise<number | null> {
  const scope = await phraseScope(db, q);
  if (!scope) return null;
  const [row] = await execRows<{ n: number }>(db, sql`SELECT cardinality(${scope})::int AS n`);
  return row?.n ?? -1;
}

describe.each(BACKENDS)("phrase searches through word pairs on %s", (backend) => {
  let database: TestDatabase;
  let dir: string;
  const phrases: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-pairs-"));
    await generateRun({ out: dir, tasks: 120, rounds: 6, seed: 23, name: "ph" });
    await ingestPath(database.db, dir, { threads: 0 });
    // Phrases from the tasks' own words: two and three adjacent words of every 9th task, at
    // positions spread over its text (instruction, solution, tests), so that some are in every
    // task, some came in with one round's new step, some with a rejected candidate only.
    const windows = await execRows<{ phrase: string }>(
      database.db,
      sql`WITH words AS (
            SELECT s.task_id, w.lexeme, p AS pos FROM task_search s, unnest(s.search) AS w, unnest(w.positions) AS p
            WHERE s.task_id % 9 = 0),
          starts AS (SELECT task_id, pos FROM words WHERE pos % 97 = 1)
          SELECT DISTINCT string_agg(w.lexeme, ' ' ORDER BY w.pos) AS phrase
          FROM starts st JOIN words w ON w.task_id = st.task_id AND w.pos BETWEEN st.pos AND st.pos + 1 + (st.pos % 2)
          GROUP BY st.task_id, st.pos HAVING count(*) >= 2`,
    );
    phrases.push(...windows.map((w) => w.phrase));
  }, 180_000);
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a native import lists each task's word pairs, a child only those its parent lacks", async () => {
    const [row] = await execRows<{ unknown: number; tasks: number; root_pairs: number; child_pairs: number }>(
      database.db,
      sql`SELECT count(*) FILTER (WHERE s.pairs = '{0}')::int AS unknown, count(*)::int AS tasks,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY cardinality(s.pairs)) FILTER (WHERE t.parent_id IS NULL))::int AS root_pairs,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY cardinality(s.pairs)) FILTER (WHERE t.parent_id IS NOT NULL))::int AS child_pairs
          FROM task_search s JOIN tasks t ON t.id = s.task_id`,
    );
    expect(row?.unknown).toBe(0);
    expect(row?.tasks).toBeGreaterThan(150);
    // A child repeats most of its parent's text, so it brings in a fraction of its pairs.
    expect(row?.child_pairs ?? Infinity).toBeLessThan((row?.root_pairs ?? 0) / 2);
  });

  test("every phrase finds what PostgreSQL's phrase match finds, the rare ones from a short list", async () => {
    expect(phrases.length).toBeGreaterThan(40);
    let narrowed = 0;
    for (const phrase of phrases) {
      const expected = await truth(database.db, phrase);
      expect(expected.length, phrase).toBeGreaterThan(0); // taken from a task's text
      const got = await found(database.db, `"${phrase}"`);
      expect(got.ids, phrase).toEqual(expected);
      expect(got.total, phrase).toBe(expected.length);
      const size = await scopeSize(database.db, `"${phrase}"`);
      if (size !== null) {
        narrowed++;
        expect(size, phrase).toBeGreaterThanOrEqual(expected.length);
      }
    }
    expect(narrowed).toBeGreaterThan(phrases.length / 4);
  });

  test("common words never adjacent leave nothing to check", async () => {
    // "pipefail" and "set" are in every task, always as "set euo pipefail"; "sqlite3" is in many.
    for (const q of ['"pipefail set"', '"pipefail sqlite3"', '"euo set"']) {
      expect(await truth(database.db, q.slice(1, -1)), q).toEqual([]);
      expect(await scopeSize(database.db, q), q).toBe(0);
      expect(await found(database.db, q), q).toEqual({ ids: [], total: 0 });
    }
    // A phrase beside a word, and a task id beside a phrase, still match as before.
    const withWord = await found(database.db, '"set euo pipefail" sqlite3');
    expect(withWord.ids).toEqual(await truth(database.db, "set euo pipefail").then(async (all) => {
      const sqlite = new Set(await truth(database.db, "sqlite3"));
      return all.filter((id) => sqlite.has(id));
    }));
    const [first] = await execRows<{ ext_id: string }>(database.db, sql`SELECT ext_id FROM tasks ORDER BY id LIMIT 1`);
    expect((await found(database.db, first?.ext_id ?? "")).ids).toEqual([first?.ext_id]);
  });

  test("a task whose text changes stands for every pair, so its descendants' phrases are still found", async () => {
    // The first seed with a grandchild, and the word pairs of its instruction (its first words).
    const [seed] = await execRows<{ ext_id: string; id: number }>(
      database.db,
      sql`SELECT p.ext_id, p.id FROM tasks p WHERE p.parent_id IS NULL
            AND EXISTS (SELECT 1 FROM tasks c JOIN tasks g ON g.parent_id = c.id WHERE c.parent_id = p.id) ORDER BY p.id LIMIT 1`,
    );
    const oldPairs = await execRows<{ phrase: string }>(
      database.db,
      sql`WITH words AS (SELECT w.lexeme, pos FROM task_search s, unnest(s.search) AS w, unnest(w.positions) AS pos WHERE s.task_id = ${seed?.id ?? 0} AND pos <= 60)
          SELECT DISTINCT a.lexeme || ' ' || b.lexeme AS phrase FROM words a JOIN words b ON b.pos = a.pos + 1`,
    );
    // Its instruction is rewritten; its children, unchanged, keep its old words.
    fs.writeFileSync(path.join(dir, "tasks", seed?.ext_id ?? "", "instruction.md"), "# Zanzibar quokka\n\nZanzibar quokka.\n");
    const s = await ingestPath(database.db, dir, { threads: 0 });
    expect(s.tasksChanged).toBe(1);
    const [row] = await execRows<{ pairs: number[] }>(database.db, sql`SELECT pairs FROM task_search WHERE task_id = ${seed?.id ?? 0}`);
    expect(row?.pairs).toEqual([0]);
    expect((await found(database.db, '"zanzibar quokka"')).ids).toEqual([seed?.ext_id]);
    // The pairs the seed lost and its descendants still have: found in them.
    let lost = 0;
    for (const { phrase } of oldPairs) {
      const expected = await truth(database.db, phrase);
      if (expected.length === 0 || expected.includes(seed?.ext_id ?? "")) continue;
      lost++;
      expect((await found(database.db, `"${phrase}"`)).ids, phrase).toEqual(expected);
    }
    expect(lost).toBeGreaterThan(3);
    for (const phrase of phrases.slice(0, 30)) expect((await found(database.db, `"${phrase}"`)).ids, phrase).toEqual(await truth(database.db, phrase));
  });
});
