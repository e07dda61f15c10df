import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { ingestPath } from "@/lib/ingest";
import { findTaskIds } from "./tasks";
import { getLineage, getPairNodes, pathIds } from "./lineage";

test("pathIds reads the ids of a materialized path, seed first", () => {
  expect(pathIds("/12/57/301/")).toEqual([12, 57, 301]);
  expect(pathIds("/")).toEqual([]);
});

describe.each(BACKENDS)("lineage on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let ids = new Map<string, number>();

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    dir = writeFixtureRun("fam");
    await ingestPath(database.db, dir);
    // A second run with the same task ids: its trees must never mix with the first.
    const other = writeFixtureRun("fam2");
    await ingestPath(database.db, other);
    fs.rmSync(other, { recursive: true, force: true });
    ids = await findTaskIds(database.db, "fam", ["s1", "s2", "a1", "a2", "b1"]);
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const id = (ext: string) => ids.get(ext) ?? -1;

  test("a leaf: its ancestors from the seed down, no descendants unless asked", async () => {
    const l = await getLineage(database.db, id("b1"));
    expect(l?.run).toBe("fam");
    expect(l?.task).toMatchObject({ task_id: "b1", round: 2, depth: 2, children: 0 });
    expect(l?.ancestors.map((a) => a.task_id)).toEqual(["s1", "a1"]);
    expect(l?.ancestors.map((a) => a.children)).toEqual([1, 1]);
    expect(l?.descendants).toEqual([]);
  });

  test("a seed's family, breadth first, only within its run; depth limit and truncation", async () => {
    const all = await getLineage(database.db, id("s1"), { descendants: true });
    expect(all?.ancestors).toEqual([]);
    expect(all?.descendants.map((d) => d.task_id)).toEqual(["a1", "b1"]);
    expect(all?.descendants.every((d) => ids.get(d.task_id) === d.id)).toBe(true);
    expect(all?.descendants.map((d) => [d.task_id, d.parent_id, d.depth, d.status, d.children])).toEqual([
      ["a1", id("s1"), 1, "accepted", 1],
      ["b1", id("a1"), 2, "accepted", 0],
    ]);
    expect(all?.truncated).toBe(false);
    const one = await getLineage(database.db, id("s1"), { descendants: true, maxDepth: 1 });
    expect(one?.descendants.map((d) => d.task_id)).toEqual(["a1"]);
    const capped = await getLineage(database.db, id("s1"), { descendants: true, limit: 1 });
    expect(capped?.descendants).toHaveLength(1);
    expect(capped?.truncated).toBe(true);
    const s2 = await getLineage(database.db, id("s2"), { descendants: true });
    expect(s2?.descendants.map((d) => [d.task_id, d.status])).toEqual([["a2", "rejected"]]);
  });

  test("a task and its parent (or a named task) in one statement, with their paths", async () => {
    const byId = (rows: { id: number; extId: string }[]) => rows.map((r) => r.extId).sort();
    expect(byId(await getPairNodes(database.db, id("b1"), null))).toEqual(["a1", "b1"]);
    expect(byId(await getPairNodes(database.db, id("b1"), id("s1")))).toEqual(["b1", "s1"]);
    const [seed, ...none] = await getPairNodes(database.db, id("s1"), null);
    expect(none).toEqual([]);
    expect(seed).toMatchObject({ extId: "s1", parentId: null, run: "fam", depth: 0, path: `/${id("s1")}/` });
    const leaf = (await getPairNodes(database.db, id("b1"), id("b1")))[0];
    expect(pathIds(leaf?.path ?? "")).toEqual([id("s1"), id("a1"), id("b1")]);
    expect(await getPairNodes(database.db, 999_999, null)).toEqual([]);
  });

  test("an unknown id is null", async () => {
    expect(await getLineage(database.db, 999_999)).toBeNull();
  });
});
