import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { execRows, useDatabase } from "@/db/client";
import { findTaskIds } from "@/db/queries/tasks";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { STEP_PYTEST_READER, STEP_SHELL_READER } from "@/lib/checks/readings";
import { clearDiffCaches, diffThreadState, stopDiffThread } from "@/lib/diff/thread";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { loadDiffView, resolveDiffPair } from "./diff";

describe.each(BACKENDS)("diff pairs and the diff page's data on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let ids = new Map<string, number>();
  const id = (ext: string) => ids.get(ext) ?? -1;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("fam");
    await ingestPath(database.db, dir);
    ids = await findTaskIds(database.db, "fam", ["s1", "s2", "a1", "a2", "b1"]);
  });
  afterAll(async () => {
    await stopDiffThread();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const pairOf = async (task: string, against: string | null) => {
    const r = await resolveDiffPair(CLI_ACTOR, id(task), against === null ? null : id(against));
    return r.ok ? { from: r.pair.from.task_id, to: r.pair.to.task_id, relation: r.pair.relation } : r.reason;
  };

  test("the parent by default; ancestors, descendants and strangers by their paths", async () => {
    expect(await pairOf("b1", null)).toEqual({ from: "a1", to: "b1", relation: "ancestor" });
    expect(await pairOf("b1", "s1")).toEqual({ from: "s1", to: "b1", relation: "ancestor" });
    expect(await pairOf("s1", "b1")).toEqual({ from: "s1", to: "b1", relation: "descendant" });
    expect(await pairOf("b1", "a2")).toEqual({ from: "a2", to: "b1", relation: "unrelated" });
    expect(await pairOf("b1", "b1")).toEqual({ from: "b1", to: "b1", relation: "unrelated" });
  });

  test("a seed has no parent; unknown tasks are named", async () => {
    expect(await pairOf("s1", null)).toBe("no-parent");
    expect(await resolveDiffPair(CLI_ACTOR, 999_999, null)).toEqual({ ok: false, reason: "task" });
    expect(await resolveDiffPair(CLI_ACTOR, id("b1"), 999_999)).toEqual({ ok: false, reason: "against" });
  });

  test("the page's data: pair, highlighted files, summary; the same again from the caches", async () => {
    await clearDiffCaches();
    const first = await loadDiffView(CLI_ACTOR, id("b1"), null);
    if (!first.found || !first.pair) throw new Error("no diff view");
    expect(first.lineage.ancestors.map((a) => a.task_id)).toEqual(["s1", "a1"]);
    const solution = first.files.find((f) => f.path === "solution/solve.sh");
    expect(solution).toMatchObject({ status: "modified", added: 2, removed: 2, language: "Shell", index: 0 });
    expect(solution?.new.map((line) => line.map(([, t]) => t).join(""))).toContain("echo done > /app/out-2.txt");
    expect(first.files.find((f) => f.path === "task.toml")).toMatchObject({ status: "modified", old: expect.any(Array) });
    expect(first.summary.commands).toEqual(["echo done > /app/out-2.txt", "cat /app/out-2.txt | grep -c done"]);
    expect(diffThreadState(), "the summary was parsed in the diff thread").toBe("running");
    const again = await loadDiffView(CLI_ACTOR, id("b1"), null);
    expect(again).toEqual(first);
  });

  test("a descendant as `against` shows the same diff as the descendant against its ancestor", async () => {
    const down = await loadDiffView(CLI_ACTOR, id("a1"), id("b1"));
    const up = await loadDiffView(CLI_ACTOR, id("b1"), id("a1"));
    if (!down.found || !down.pair || !up.found || !up.pair) throw new Error("no diff view");
    expect([down.pair.relation, down.pair.from.task_id, down.pair.to.task_id]).toEqual(["descendant", "a1", "b1"]);
    expect([up.pair.relation, up.pair.from.task_id, up.pair.to.task_id]).toEqual(["ancestor", "a1", "b1"]);
    expect(down.files).toEqual(up.files);
    expect(down.summary).toEqual(up.summary);
    expect(down.files.find((f) => f.path === "solution/solve.sh")).toMatchObject({ added: 2, removed: 2 });
  });

  test("a seed without `against`: its lineage, no pair; an unknown task: not found", async () => {
    const seed = await loadDiffView(CLI_ACTOR, id("s1"), null);
    expect(seed.found && seed.lineage.task.task_id).toBe("s1");
    expect(seed.found && seed.pair).toBeNull();
    expect(await loadDiffView(CLI_ACTOR, 999_999, null)).toEqual({ found: false });
    expect(await loadDiffView(CLI_ACTOR, id("b1"), 999_999)).toEqual({ found: false });
  });

  test("the summary reads what the import stored of each file; without it the files are parsed alike", async () => {
    // Every solve.sh and tests/**.py blob has its reading, whatever its task's status (a2 is rejected).
    const [counts] = await execRows<{ files: number; read: number }>(
      database.db,
      sql`SELECT count(DISTINCT f.blob_hash)::int AS files,
                 count(DISTINCT f.blob_hash) FILTER (WHERE EXISTS (
                   SELECT 1 FROM check_readings r WHERE r.hash = f.blob_hash
                     AND r.reader = CASE WHEN f.path = 'solution/solve.sh' THEN ${STEP_SHELL_READER} ELSE ${STEP_PYTEST_READER} END))::int AS read
          FROM task_files f WHERE f.path = 'solution/solve.sh' OR f.path LIKE 'tests/%.py'`,
    );
    expect(Number(counts?.files)).toBeGreaterThan(3);
    expect(Number(counts?.read)).toBe(Number(counts?.files));
    const view = async () => {
      await clearDiffCaches();
      const v = await loadDiffView(CLI_ACTOR, id("b1"), null);
      if (!v.found || !v.pair) throw new Error("no diff view");
      return v;
    };
    const stored = await view();
    // What is stored is what the summary shows…
    await database.db.execute(
      sql`UPDATE check_readings r SET reading = '{"spans":[[0,11]]}'::json FROM task_files f
          WHERE f.task_id = ${id("b1")} AND f.path = 'solution/solve.sh' AND r.hash = f.blob_hash AND r.reader = ${STEP_SHELL_READER}`,
    );
    expect((await view()).summary.commands).toEqual(["#!/bin/bash"]); // a comment, read as a statement
    // …and without stored readings the files are parsed, to the same page.
    await database.db.execute(sql`DELETE FROM check_readings WHERE reader LIKE 'steps-%'`);
    expect(await view()).toEqual(stored);
  });

  test("reads are refused without a signed-in actor", async () => {
    await expect(loadDiffView(null, id("b1"), null)).rejects.toThrow(/sign in/);
  });
});
