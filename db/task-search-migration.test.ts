// Migration 0013: the search vectors leave `tasks` for task_search, and every task searchable
// before is searchable after, by the same words (and, with 0015, every task has its row).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows, migrateDatabase } from "./client";
import { databaseBefore } from "./migration-testing";
import { listTasks } from "./queries/tasks";
import { BACKENDS, type TestDatabase } from "./testing";

const TAG = "0013_task_search_table";

describe.each(BACKENDS)(`migration ${TAG} on %s`, (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await databaseBefore(backend, TAG);
    const db = database.db;
    await db.execute(sql`INSERT INTO runs (name, format) VALUES ('m', 'native')`);
    await db.execute(sql`
      INSERT INTO tasks (run_id, ext_id, status, content_hash, round, search)
      SELECT (SELECT id FROM runs WHERE name = 'm'), v.ext_id, 'accepted', v.ext_id, 1, to_tsvector('simple', v.words)
      FROM (VALUES ('t1', 'set euo pipefail sqlite3 crontab'), ('t2', 'tar gzip out 2 txt'), ('t3', NULL)) AS v(ext_id, words)`);
    await migrateDatabase(database);
  });
  afterAll(async () => {
    await database.close();
  });

  const found = async (q: string) => (await listTasks(database.db, { run: "m", q, limit: 50 })).items.map((t) => t.task_id);

  test("the vectors moved: the same words find the same tasks", async () => {
    expect(await found("crontab")).toEqual(["t1"]);
    expect(await found('"set -euo pipefail"')).toEqual(["t1"]);
    expect(await found("out-2.txt")).toEqual(["t2"]);
    expect(await found('"pipefail set"')).toEqual([]);
    expect(await found("t3")).toEqual(["t3"]);
    const rows = await execRows<{ ext_id: string; lexemes: number }>(
      database.db,
      sql`SELECT t.ext_id, length(s.search) AS lexemes FROM task_search s JOIN tasks t ON t.id = s.task_id ORDER BY 1`,
    );
    // t3 had no vector: migration 0015 gives it an empty one, so its id still finds it.
    expect(rows.map((r) => [r.ext_id, Number(r.lexemes)])).toEqual([["t1", 5], ["t2", 5], ["t3", 0]]);
  });

  test("tasks keeps no vector and no GIN index, so a decision's update touches neither", async () => {
    const vectors = await execRows<{ attname: string }>(
      database.db,
      sql`SELECT attname FROM pg_attribute WHERE attrelid = 'tasks'::regclass AND NOT attisdropped AND atttypid = 'tsvector'::regtype`,
    );
    expect(vectors).toEqual([]);
    const gin = await execRows<{ relname: string; tbl: string }>(
      database.db,
      sql`SELECT c.relname, i.indrelid::regclass::text AS tbl FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
          WHERE am.amname = 'gin' AND i.indrelid IN ('tasks'::regclass, 'task_search'::regclass) ORDER BY c.relname`,
    );
    // The word pairs' index (migration 0020) lives beside the vectors'.
    expect(gin).toEqual([
      { relname: "task_search_idx", tbl: "task_search" },
      { relname: "task_search_pairs_idx", tbl: "task_search" },
    ]);
  });

  test("a deleted task takes its vector with it", async () => {
    await database.db.execute(sql`DELETE FROM tasks WHERE ext_id = 't2'`);
    const [row] = await execRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM task_search`);
    expect(Number(row?.n)).toBe(2);
  });
});
