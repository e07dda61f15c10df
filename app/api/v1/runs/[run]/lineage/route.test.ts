// POST /api/v1/runs/{run}/lineage: a dry run reports, the real one links; a run with declared
// lineage is 409, an unknown run 404, an unknown field 400.
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { createToken } from "@/db/queries/tokens";
import { runs, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { LineageInferenceJson } from "@/lib/api/types";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { callRoute, type Case } from "@/app/api/route-testing";

describe.each(BACKENDS)("inferring lineage through the API on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let auth: Record<string, string> = {};
  const infer = (run: string, body: unknown): Case => ({ file: "runs/[run]/lineage", method: "POST", url: `/api/v1/runs/${run}/lineage`, params: { run }, body, role: "admin" });

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("declared");
    await ingestPath(database.db, dir);
    await ingestPath(database.db, path.join(dir, "tasks"), { runName: "bare" });
    auth = { authorization: `Bearer ${(await createToken(database.db, { name: "ci", role: "admin" }, CLI_ACTOR)).token}` };
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a dry run, then the links", async () => {
    const dry = await callRoute(infer("bare", { dry_run: true }), auth);
    expect(dry.status).toBe(200);
    expect((await dry.json()) as LineageInferenceJson).toMatchObject({ run: "bare", tasks: 5, written: false, checks: null });
    const done = await callRoute(infer("bare", {}), auth);
    const body = (await done.json()) as LineageInferenceJson;
    expect(body).toMatchObject({ run: "bare", tasks: 5, written: true });
    // The fixture's five solutions differ only in a file name: whatever is linked, it is in the database.
    const linked = await database.db.select({ parent: tasks.parentExtId }).from(tasks).innerJoin(runs, eq(runs.id, tasks.runId)).where(eq(runs.name, "bare"));
    expect(linked.filter((t) => t.parent !== null)).toHaveLength(body.linked);
  });

  test("refusals", async () => {
    const declared = await callRoute(infer("declared", {}), auth);
    expect(declared.status).toBe(409);
    expect(((await declared.json()) as { error: { code: string } }).error.code).toBe("lineage_declared");
    expect((await callRoute(infer("nowhere", {}), auth)).status).toBe(404);
    expect((await callRoute(infer("bare", { dry_run: true, everything: 1 }), auth)).status).toBe(400);
  });
});
