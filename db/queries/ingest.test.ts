import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { execRows } from "@/db/client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { TaskStatus } from "@/lib/domain";
import { toStoredContent } from "@/lib/ingest/content";
import { RunWriter } from "./ingest";
import type { TaskInput } from "./ingest-rows";

/** A task of a chain: every task's parent is the one before it, `length` to a chain. */
function chainTask(i: number, length: number, status: TaskStatus = "accepted"): TaskInput {
  const step = i % length;
  const script = `#!/bin/bash\necho step ${i}\n`;
  return {
    row: {
      extId: `t${i}`,
      parentExtId: step === 0 ? null : `t${i - 1}`,
      round: step,
      status,
      repairAttempts: 0,
      contentHash: `hash-${i}`,
      metadata: {},
      name: `task ${i}`,
    },
    searchText: `echo step ${i}`,
    searchVector: null,
    files: [{ path: "solution/solve.sh", stored: toStoredContent(Buffer.from(script)) }],
    evals: [],
  };
}

async function openWriter(tx: Parameters<typeof RunWriter.open>[0]): Promise<RunWriter> {
  return RunWriter.open(tx, { name: "batches", format: "native", sourcePath: "/nowhere", meta: {}, createdAt: null }, 0);
}

describe.each(BACKENDS)("RunWriter batches on %s", (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database.close();
  });
  afterEach(async () => {
    await database.db.execute(sql`TRUNCATE runs, blobs RESTART IDENTITY CASCADE`);
  });

  test("a writer knows whether the database is embedded, inside the import's transaction", async () => {
    // The readers' read-ahead depends on it (lib/ingest/native/read-run.ts candidatesAhead): the
    // writer is opened on a transaction, never on the database itself.
    await database.db.transaction(async (tx) => {
      const writer = await openWriter(tx);
      expect(writer.embeddedDatabase).toBe(backend === "pglite");
    });
  });

  test("batches written while the next is gathered all land, with their lineage", async () => {
    // 2,500 tasks: two full batches written in the background and a last one by finish; chains of
    // 40 cross the batches' edges, so children meet parents written by the batch before.
    const total = 2500;
    await database.db.transaction(async (tx) => {
      const writer = await openWriter(tx);
      for (let i = 0; i < total; i++) await writer.addTask(chainTask(i, 40));
      await writer.finish();
      expect(writer.counts.tasksNew).toBe(total);
      expect(writer.counts.blobsNew).toBe(total);
    });
    const rows = await execRows<{ ext_id: string; depth: number; parent: string | null; files: number }>(
      database.db,
      sql`SELECT t.ext_id, t.depth, p.ext_id AS parent, (SELECT count(*)::int FROM task_files f WHERE f.task_id = t.id) AS files
          FROM tasks t LEFT JOIN tasks p ON p.id = t.parent_id ORDER BY t.id`,
    );
    expect(rows).toHaveLength(total);
    for (const [i, r] of rows.entries()) {
      expect(r).toEqual({ ext_id: `t${i}`, depth: i % 40, parent: i % 40 === 0 ? null : `t${i - 1}`, files: 1 });
    }
  });

  test("a batch that fails while the next is gathered fails the import, and nothing is left", async () => {
    // Task 600 breaks its batch (status is NOT NULL); that batch is written in the background
    // after the 1,000th task, so its error has to reach a later add or finish.
    const attempt = database.db.transaction(async (tx) => {
      const writer = await openWriter(tx);
      for (let i = 0; i < 1500; i++) {
        const t = chainTask(i, 40);
        if (i === 600) t.row.status = null as unknown as TaskStatus;
        await writer.addTask(t);
      }
      await writer.finish();
    });
    await expect(attempt).rejects.toThrow(/status/);
    const [left] = await execRows<{ runs: number; tasks: number; blobs: number }>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM runs) AS runs, (SELECT count(*)::int FROM tasks) AS tasks, (SELECT count(*)::int FROM blobs) AS blobs`,
    );
    expect(left).toEqual({ runs: 0, tasks: 0, blobs: 0 });
  });
});
