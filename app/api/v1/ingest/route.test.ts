// Uploads through POST /api/v1/ingest as a pipeline sends them, with a token: a run archive, or a
// JSONL file of tasks; imported in the background, progress polled, audited; a bad upload is
// refused with what is wrong named, and nothing is imported.
import fs from "node:fs";
import { gzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { createToken } from "@/db/queries/tokens";
import { auditLog, runs, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { packDirectory } from "@/lib/upload/pack";
import { writeRelease } from "@/lib/generate/release";
import { callRoute, type Case } from "@/app/api/route-testing";

describe.each(BACKENDS)("uploads on %s", (backend) => {
  let database: TestDatabase;
  let fixtureDir = "";
  let archive: Buffer = Buffer.alloc(0);
  let auth: Record<string, string> = {};
  const upload = (run: string, type: string, bytes: Buffer): Case => ({ file: "ingest", method: "POST", url: `/api/v1/ingest?run=${run}`, raw: { type, bytes }, role: "admin" });

  /** Polls the import's progress URL until it is no longer running; returns its last state. */
  async function finished(res: Response): Promise<{ status: string; error: string | null; summary: { format?: string } | null }> {
    expect(res.status, await res.clone().text()).toBe(202);
    const { import_id, progress_url } = (await res.json()) as { import_id: number; progress_url: string };
    expect(progress_url).toBe(`/api/v1/imports/${import_id}`);
    const poll: Case = { file: "imports/[id]", method: "GET", url: progress_url, params: { id: String(import_id) }, role: "admin" };
    for (;;) {
      const r = (await (await callRoute(poll, auth)).json()) as { status: string; error: string | null; summary: { format?: string } | null };
      if (r.status !== "running") return r;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const taskCount = async (run: string) =>
    (await database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(tasks).innerJoin(runs, eq(runs.id, tasks.runId)).where(eq(runs.name, run)))[0]?.n;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    fixtureDir = writeFixtureRun("fx");
    archive = gzipSync(await packDirectory(fixtureDir));
    auth = { authorization: `Bearer ${(await createToken(database.db, { name: "ci", role: "admin" }, CLI_ACTOR)).token}` };
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(fixtureDir, { recursive: true, force: true });
  });

  test("a pipeline uploads a run archive with its token", async () => {
    expect((await finished(await callRoute(upload("from-pipeline", "application/gzip", archive), auth))).status).toBe("done");
    expect(await taskCount("from-pipeline")).toBe(5);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "ingest"));
    expect(audit.some((a) => a.actorLabel === 'token "ci"' && a.targetId === "from-pipeline")).toBe(true);

    // A bad archive is refused with the entry named, and nothing is imported.
    const evil = await (async () => {
      const pack = tar.pack();
      pack.entry({ name: "../escape.txt" }, "x");
      pack.finalize();
      const chunks: Buffer[] = [];
      for await (const c of pack) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    })();
    const bad = await callRoute(upload("evil", "application/x-tar", evil), auth);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("../escape.txt");
    // A form-encodable type is refused before anything is read.
    expect((await callRoute(upload("from-pipeline", "text/plain", archive), auth)).status).toBe(415);
  });

  test("the public RST release uploads packed at the archive's top; without ?run= its run is named upload", async () => {
    const release = `${fixtureDir}-release`;
    try {
      const { tasks: n } = await writeRelease(fixtureDir, release);
      expect(n).toBeGreaterThan(2);
      const packed = gzipSync(await packDirectory(release, ""));
      const res = await callRoute({ file: "ingest", method: "POST", url: "/api/v1/ingest", raw: { type: "application/gzip", bytes: packed }, role: "admin" }, auth);
      expect(await finished(res)).toMatchObject({ status: "done", summary: { format: "release" } });
      expect(await taskCount("upload")).toBe(n);
    } finally {
      fs.rmSync(release, { recursive: true, force: true });
    }
  });

  test("a JSONL file of tasks uploads as it is; a bad line fails the import with its line named", async () => {
    const line = (id: string, parent: string | null, round: number) =>
      JSON.stringify({ id, round, parent_id: parent, status: "accepted", metadata: { run: "lines" }, files: { "instruction.md": `# ${id}\n`, "solution/solve.sh": "#!/bin/bash\necho hi\n" } });
    const body = Buffer.from(`${line("s1", null, 0)}\n${line("c1", "s1", 1)}\n`);
    const done = await finished(await callRoute(upload("from-jsonl", "application/x-ndjson", body), auth));
    expect(done).toMatchObject({ status: "done", summary: { format: "jsonl" } });
    expect(await taskCount("from-jsonl")).toBe(2);

    const bad = Buffer.from(`${line("s1", null, 0)}\n{"id": "c1"\n`);
    const failed = await finished(await callRoute(upload("bad-jsonl", "application/x-ndjson", bad), auth));
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/upload\.jsonl:2: invalid JSON/);
    expect(await database.db.select().from(runs).where(eq(runs.name, "bad-jsonl"))).toEqual([]);
  });
});
