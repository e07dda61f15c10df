import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { ingestPath } from "@/lib/ingest";
import { getForest } from "./forest";

describe.each(BACKENDS)("forest on %s", (backend) => {
  let database: TestDatabase;
  const dirs: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    // Two runs with the same task ids: aggregates must stay within their run.
    for (const name of ["wood", "wood2"]) {
      const dir = writeFixtureRun(name);
      dirs.push(dir);
      await ingestPath(database.db, dir);
    }
  });
  afterAll(async () => {
    await database?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  test("families per seed: size, accepted, rejected, depth", async () => {
    const f = await getForest(database.db, "wood");
    expect(f?.seeds.map((s) => [s.task_id, s.size, s.accepted, s.rejected, s.max_depth, s.max_round])).toEqual([
      ["s1", 3, 3, 0, 2, 2],
      ["s2", 2, 1, 1, 1, 1],
    ]);
  });

  test("rejection by operator and by round, with the most frequent reason", async () => {
    const f = await getForest(database.db, "wood");
    expect(f?.by_operator).toEqual([{ key: "append-step", accepted: 2, rejected: 1, top_reason: "oracle_failed" }]);
    expect(f?.by_round).toEqual([
      { key: 0, accepted: 2, rejected: 0, top_reason: null },
      { key: 1, accepted: 1, rejected: 1, top_reason: "oracle_failed" },
      { key: 2, accepted: 1, rejected: 0, top_reason: null },
    ]);
  });

  test("how many families reach each depth (accepted tasks only)", async () => {
    const f = await getForest(database.db, "wood");
    expect(f?.depth_reach).toEqual([
      { depth: 0, families: 2 },
      { depth: 1, families: 1 },
      { depth: 2, families: 1 },
    ]);
  });

  test("an unknown run is null; the seed list can be capped", async () => {
    expect(await getForest(database.db, "nope")).toBeNull();
    expect((await getForest(database.db, "wood", 1))?.seeds).toHaveLength(1);
  });
});
