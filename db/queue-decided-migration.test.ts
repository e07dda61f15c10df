// Migration 0014: reviews carry their actor's label and queue members their latest decision, so
// a queue's progress after the migration is what it was before, derived from the reviews.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { execRows, migrateDatabase } from "./client";
import { databaseBefore } from "./migration-testing";
import { getQueue } from "./queries/queues";
import { BACKENDS, type TestDatabase } from "./testing";

const TAG = "0014_queue_decided_by";
const ann: Actor = { kind: "user", id: "u-ann", label: "ann@example.org", role: "reviewer", userId: "u-ann" };

describe.each(BACKENDS)(`migration ${TAG} on %s`, (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await databaseBefore(backend, TAG);
    const db = database.db;
    await db.execute(sql`INSERT INTO runs (name, format) VALUES ('m', 'native')`);
    await db.execute(sql`
      INSERT INTO tasks (run_id, ext_id, status, content_hash, round)
      SELECT (SELECT id FROM runs WHERE name = 'm'), 't' || i, 'accepted', 'h' || i, 1 FROM generate_series(1, 4) i`);
    await db.execute(sql`INSERT INTO users (id, name, email, role) VALUES ('u-ann', 'Ann', 'ann@example.org', 'reviewer')`);
    await db.execute(sql`INSERT INTO review_queues (id, name) VALUES (1, 'q')`);
    await db.execute(sql`
      INSERT INTO queue_items (queue_id, task_id, position, added_at)
      SELECT 1, id, id, now() - interval '1 hour' FROM tasks`);
    // Ann decides t1 and t2; a token (no user: its label is on the audit row) revises t2 and
    // decides t3; t4 gets only a skip. A decision older than the queue does not count.
    const review = async (ext: string, user: string | null, label: string, decision: string, ago: string, version: number) => {
      await db.execute(sql`
        WITH r AS (
          INSERT INTO reviews (task_id, user_id, decision, base_version, content_hash, created_at)
          SELECT id, ${user}, ${decision}, ${version}, content_hash, now() - ${ago}::interval FROM tasks WHERE ext_id = ${ext}
          RETURNING id, task_id, created_at
        )
        INSERT INTO audit_log (at, actor_id, actor_label, action, target_type, target_id, details)
        SELECT r.created_at, ${user}, ${label}, 'review', 'task', r.task_id::text, jsonb_build_object('review_id', r.id) FROM r`);
    };
    await review("t1", null, "old token", "reject", "2 hours", 0);
    await review("t1", "u-ann", "ann@example.org", "accept", "50 minutes", 1);
    await review("t2", "u-ann", "ann@example.org", "accept", "40 minutes", 1);
    await review("t2", null, "pipeline", "needs-changes", "30 minutes", 2);
    await review("t3", null, "pipeline", "accept", "20 minutes", 1);
    await review("t4", "u-ann", "ann@example.org", "skip", "10 minutes", 1);
    await migrateDatabase(database);
  });
  afterAll(async () => {
    await database.close();
  });

  test("every review gets its actor's label: a user's email, a token's from the audit row", async () => {
    const rows = await execRows<{ ext_id: string; decision: string; actor_label: string | null }>(
      database.db,
      sql`SELECT t.ext_id, r.decision, r.actor_label FROM reviews r JOIN tasks t ON t.id = r.task_id ORDER BY r.id`,
    );
    expect(rows.map((r) => [r.ext_id, r.decision, r.actor_label])).toEqual([
      ["t1", "reject", "old token"],
      ["t1", "accept", "ann@example.org"],
      ["t2", "accept", "ann@example.org"],
      ["t2", "needs-changes", "pipeline"],
      ["t3", "accept", "pipeline"],
      ["t4", "skip", "ann@example.org"],
    ]);
  });

  test("each done member holds its latest decision since it joined; the progress counts them", async () => {
    const members = await execRows<{ ext_id: string; decision: string | null; decided_by: string | null; decided_by_user: string | null }>(
      database.db,
      sql`SELECT t.ext_id, qi.decision, qi.decided_by, qi.decided_by_user FROM queue_items qi JOIN tasks t ON t.id = qi.task_id ORDER BY 1`,
    );
    expect(members.map((m) => [m.ext_id, m.decision, m.decided_by, m.decided_by_user])).toEqual([
      ["t1", "accept", "ann@example.org", "u-ann"],
      ["t2", "needs-changes", "pipeline", null],
      ["t3", "accept", "pipeline", null],
      ["t4", null, null, null],
    ]);
    const queue = await getQueue(database.db, 1, ann);
    expect(queue?.progress).toMatchObject({ total: 4, done: 3, left: 1 });
    expect(queue?.progress.by_reviewer).toEqual([
      { reviewer: "pipeline", done: 2 },
      { reviewer: "ann@example.org", done: 1 },
    ]);
    expect(queue?.mine.history.map((h) => [h.task_id, h.decision])).toEqual([["t1", "accept"]]);
  });
});
