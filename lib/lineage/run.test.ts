// Lineage inference on a run imported without lineage (Harbor task directories): links, depths,
// rounds and evidence written in one go and audited; a run with declared lineage refused; a dry
// run writes nothing; a task re-imported with new content loses its inferred link.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditLog, runs, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { findRun } from "@/db/queries/checks";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun, writeOpaqueFamily } from "@/lib/ingest/fixtures";
import { InferenceRefused, inferRunLineage } from "./run";

describe.each(BACKENDS)("inferring a run's lineage on %s", (backend) => {
  let database: TestDatabase;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "rst-infer-"));
  const folder = path.join(root, "opaque");
  let native = "";

  const rows = () =>
    database.db
      .select({ extId: tasks.extId, parentExtId: tasks.parentExtId, parentId: tasks.parentId, rootId: tasks.rootId, depth: tasks.depth, round: tasks.round, inferred: tasks.lineageInferred })
      .from(tasks)
      .innerJoin(runs, eq(runs.id, tasks.runId))
      .where(eq(runs.name, "opaque"))
      .orderBy(asc(tasks.extId));
  const run = async (name: string) => {
    const [r] = await findRun(database.db, name);
    if (!r) throw new Error(`no run ${name}`);
    return r;
  };

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    writeOpaqueFamily(folder);
    await ingestPath(database.db, folder);
    native = writeFixtureRun("declared");
    await ingestPath(database.db, native);
  });
  afterAll(async () => {
    await database?.close();
    for (const d of [root, native]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  test("a dry run reports and writes nothing; the real one links, deepens and audits", async () => {
    const dry = await inferRunLineage(database.db, await run("opaque"), { dryRun: true });
    expect(dry).toMatchObject({ tasks: 5, linked: 3, roots: 2, roundsFromDepth: 5, written: false });
    expect((await rows()).every((r) => r.parentExtId === null && r.inferred === null && r.round === null)).toBe(true);

    const done = await inferRunLineage(database.db, await run("opaque"));
    expect(done).toMatchObject({ tasks: 5, linked: 3, roots: 2, written: true });
    expect(done.checks).toBeDefined();
    const got = await rows();
    const byId = new Map(got.map((r) => [r.extId, r]));
    expect(got.map((r) => [r.extId, r.parentExtId, r.depth, r.round])).toEqual([
      ["t-1a7e", "t-9f2c", 1, 1],
      ["t-77b0", "t-1a7e", 2, 2],
      ["t-9f2c", null, 0, 0],
      ["t-c03d", "t-1a7e", 2, 2],
      ["t-e515", null, 0, 0],
    ]);
    // Parent ids and roots are the database's, as for declared lineage.
    expect(byId.get("t-c03d")?.parentId).toBeTruthy();
    expect(byId.get("t-c03d")?.rootId).toBe(byId.get("t-77b0")?.rootId);
    expect(byId.get("t-c03d")?.inferred).toMatchObject({ shared_lines: 8, parent_lines: 8, child_lines: 11, round_from_depth: true });
    expect(byId.get("t-9f2c")?.inferred).toMatchObject({ confidence: null, round_from_depth: true });
    // The run's stored counts follow the tree: two seeds, rounds up to 2.
    const [stored] = await database.db.select({ counts: runs.counts }).from(runs).where(eq(runs.name, "opaque"));
    expect(stored?.counts).toMatchObject({ seeds: 2, rounds: 2, accepted: 5 });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "lineage-infer"));
    expect(audit.map((a) => [a.targetId, a.actorLabel, (a.details as { linked: number }).linked])).toEqual([["opaque", "command line", 3]]);

    // Inferring again gives the same links (the rounds it set are known to be depths).
    await inferRunLineage(database.db, await run("opaque"));
    expect((await rows()).map((r) => [r.extId, r.parentExtId, r.round])).toEqual(got.map((r) => [r.extId, r.parentExtId, r.round]));
  });

  test("a run whose pipeline declared its lineage is refused", async () => {
    await expect(inferRunLineage(database.db, await run("declared"))).rejects.toThrow(InferenceRefused);
    await expect(inferRunLineage(database.db, await run("declared"))).rejects.toThrow(/declares its lineage \(3 tasks have a parent/);
  });

  test("a task imported again with new content loses its inferred link and evidence", async () => {
    fs.appendFileSync(path.join(folder, "t-77b0", "instruction.md"), "\nOne more requirement.\n");
    expect(await ingestPath(database.db, folder)).toMatchObject({ tasksChanged: 1 });
    const changed = (await rows()).find((r) => r.extId === "t-77b0");
    expect(changed).toMatchObject({ parentExtId: null, parentId: null, depth: 0, inferred: null });
  });
});
