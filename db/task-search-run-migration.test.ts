// Migration 0021: every task_search row gets its task's run, and a search within a run is then
// counted through it (db/queries/tasks.ts countMatches).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows, migrateDatabase } from "./client";
import { databaseBefore } from "./migration-testing";
import { listTasks } from "./queries/tasks";
import { countTasks } from "./queries/views";
import { BACKENDS, type TestDatabase } from "./testing";

const TAG = "0021_task_search_run";

describe.each(BACKENDS)(`migration ${TAG} on %s`, (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await databaseBefore(backend, TAG);
    const db = database.db;
    await db.execute(sql`INSERT INTO runs (name, format) VALUES ('a', 'native'), ('b', 'native')`);
    // Run a: 30 tasks, run b: 12; every one says "crontab" and its own id.
    for (const [run, n] of [["a", 30], ["b", 12]] as const) {
      await db.execute(sql`
        INSERT INTO tasks (run_id, ext_id, status, content_hash, round)
        SELECT (SELECT id FROM runs WHERE name = ${run}), ${run} || '-' || g, 'accepted', ${run} || g, 1 FROM generate_series(1, ${n}::int) AS g`);
    }
    await db.execute(sql`INSERT INTO task_search (task_id, search) SELECT id, to_tsvector('simple', 'crontab ' || ext_id) FROM tasks`);
    await migrateDatabase(database);
  });
  afterAll(async () => {
    await database.close();
  });

  test("each row holds its task's run", async () => {
    const rows = await execRows<{ run: string; n: number }>(
      database.db,
      sql`SELECT r.name AS run, count(*)::int AS n FROM task_search s JOIN tasks t ON t.id = s.task_id JOIN runs r ON r.id = s.run_id
          WHERE s.run_id = t.run_id GROUP BY r.name ORDER BY r.name`,
    );
    expect(rows.map((r) => [r.run, Number(r.n)])).toEqual([["a", 30], ["b", 12]]);
    const nullable = await execRows<{ attnotnull: boolean }>(
      database.db,
      sql`SELECT attnotnull FROM pg_attribute WHERE attrelid = 'task_search'::regclass AND attname = 'run_id'`,
    );
    expect(nullable).toEqual([{ attnotnull: true }]);
  });

  test("a search within a run counts that run's tasks only", async () => {
    // A page of 5 is full: the totals are counted.
    expect(await listTasks(database.db, { run: "b", q: "crontab", limit: 5 })).toMatchObject({ total: 12, total_is_estimate: false });
    expect(await listTasks(database.db, { run: "a", q: "crontab", limit: 5 })).toMatchObject({ total: 30, total_is_estimate: false });
    expect(await countTasks(database.db, { run: "a", q: "b-3", limit: 50 })).toEqual({ total: 0, isEstimate: false });
    expect(await countTasks(database.db, { q: "crontab", limit: 50 })).toEqual({ total: 42, isEstimate: false });
  });
});
