// The public RST release (FORMATS.md §5): tar shards streamed, checked against the manifest and the
// parquet, every task a root with its files byte for byte; then its lineage inferred (C12).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { blobs, runs, taskFiles, tasks } from "@/db/schema";
import { execRows } from "@/db/client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { generateRun } from "@/lib/generate";
import { writeRelease } from "@/lib/generate/release";
import { packDirectory } from "@/lib/upload/pack";
import { inferRunLineage } from "@/lib/lineage/run";
import { IngestError, IssueList } from "./errors";
import { detectFormat, ingestPath } from "./index";
import { readTree } from "./walk";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "rst-release-"));
const runDir = path.join(root, "native");
const release = path.join(root, "rst-release");

interface Truth {
  id: string;
  task_id: string;
  parent_id: string | null;
  round: number;
}
const truth = (dir: string): Truth[] =>
  fs
    .readFileSync(path.join(dir, "lineage-truth.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Truth);

/** A copy of the release to break. */
function copyRelease(name: string): string {
  const dir = path.join(root, name);
  fs.cpSync(release, dir, { recursive: true });
  return dir;
}

/** A shard written entry by entry, to hold what a good release never does. */
async function writeShard(file: string, entries: { name: string; body?: string; type?: "file" | "symlink"; linkname?: string }[]): Promise<void> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => chunks.push(c as Buffer));
  const ended = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  for (const e of entries) {
    if (e.type === "symlink") pack.entry({ name: e.name, type: "symlink", linkname: e.linkname ?? "/etc/passwd" });
    else pack.entry({ name: e.name }, e.body ?? "x\n");
  }
  pack.finalize();
  await ended;
  fs.writeFileSync(file, Buffer.concat(chunks));
}

beforeAll(async () => {
  await generateRun({ out: runDir, tasks: 60, rounds: 4, seed: 11 });
  await writeRelease(runDir, release, { tasksPerShard: 25 });
}, 120_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe.each(BACKENDS)("the public RST release on %s", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  const taskRows = (run: string) =>
    database.db
      .select({ id: tasks.id, extId: tasks.extId, round: tasks.round, parentId: tasks.parentId, status: tasks.status, solutionLines: tasks.solutionLines, verifierTests: tasks.verifierTests })
      .from(tasks)
      .innerJoin(runs, eq(runs.id, tasks.runId))
      .where(eq(runs.name, run))
      .orderBy(asc(tasks.extId));
  const runNamed = async (name: string) => (await database.db.select().from(runs).where(eq(runs.name, name)))[0];

  test("its shards become a run of roots, every file byte for byte; again it adds nothing", async () => {
    expect(await detectFormat(release)).toBe("release");
    const expected = truth(release);
    // Two reader threads: the files travel to them as bytes, not as Buffers.
    const s = await ingestPath(database.db, release, { threads: 2 });
    expect(s).toMatchObject({ format: "release", run: "rst-release", tasksNew: expected.length, trialsNew: 0, unchanged: false, warnings: [] });
    const rows = await taskRows("rst-release");
    expect(rows.map((r) => r.extId)).toEqual(expected.map((t) => t.id).sort());
    for (const r of rows) {
      expect([r.round, r.parentId, r.status]).toEqual([null, null, "accepted"]);
      expect(r.solutionLines).toBeGreaterThan(0);
      expect(r.verifierTests).toBeGreaterThan(0);
    }
    // One task's files, as the native run holds them.
    const one = expected[7] as Truth;
    const row = rows.find((r) => r.extId === one.id);
    const stored = await database.db
      .select({ path: taskFiles.path, content: blobs.content, encoding: blobs.encoding })
      .from(taskFiles)
      .innerJoin(blobs, eq(blobs.hash, taskFiles.blobHash))
      .where(eq(taskFiles.taskId, row?.id ?? -1))
      .orderBy(asc(taskFiles.path));
    const source = readTree(path.join(runDir, "tasks", one.task_id), new IssueList(), one.task_id);
    expect(stored.map((f) => f.path)).toEqual(source.map((f) => f.rel).sort());
    for (const f of source) {
      const s2 = stored.find((x) => x.path === f.rel);
      expect(s2?.encoding === "base64" ? Buffer.from(s2.content, "base64") : Buffer.from(s2?.content ?? "", "utf8")).toEqual(f.bytes);
    }
    // Every task is a root that inference may link: its solution is read for the checks now.
    const unread = await execRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM tasks t JOIN runs r ON r.id = t.run_id JOIN task_files f ON f.task_id = t.id AND f.path = 'solution/solve.sh'
          WHERE r.name = 'rst-release' AND NOT EXISTS (SELECT 1 FROM check_readings c WHERE c.hash = f.blob_hash AND c.reader LIKE 'shell@%')`,
    );
    expect(unread[0]?.n).toBe(0);
    expect(await ingestPath(database.db, release)).toMatchObject({ unchanged: true, tasksUnchanged: expected.length });
  });

  test("its lineage is inferred from the content: the parents are found", async () => {
    const run = await runNamed("rst-release");
    const summary = await inferRunLineage(database.db, { id: run?.id ?? -1, name: "rst-release" });
    const expected = truth(release);
    const byId = new Map((await taskRows("rst-release")).map((r) => [r.id, r.extId]));
    const found = new Map((await taskRows("rst-release")).map((r) => [r.extId, r.parentId === null ? null : byId.get(r.parentId)]));
    const right = expected.filter((t) => found.get(t.id) === t.parent_id).length;
    expect(summary.tasks).toBe(expected.length);
    // A generated run's children extend their parents' solutions: nearly every link is found.
    expect(right / expected.length).toBeGreaterThan(0.9);
  });

  test("a shard that does not match its manifest fails the import, naming the shard; nothing is written", async () => {
    const dir = copyRelease(`corrupt-${backend}`);
    const shard = path.join(dir, "data/tasks-00001.tar");
    const bytes = fs.readFileSync(shard);
    // A byte of file content (past the first header) changed: still a readable tar.
    const at = bytes.indexOf(Buffer.from("#!/bin/bash"));
    bytes[at + 3] = "B".charCodeAt(0);
    fs.writeFileSync(shard, bytes);
    const err = await ingestPath(database.db, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect((err as IngestError).issues.map((i) => `${i.file}: ${i.message}`)).toEqual([
      expect.stringMatching(/^data\/tasks-00001\.tar: does not match its SHA-256 in the manifest \(line 2\)/),
    ]);
    expect(await runNamed(`corrupt-${backend}`)).toBeUndefined();

    fs.truncateSync(shard, bytes.length - 1024);
    const truncated = await ingestPath(database.db, dir).catch((e: unknown) => e);
    expect((truncated as IngestError).issues[0]?.message).toMatch(/bytes, the manifest says \d+ \(line 2\)|not a readable tar/);
    expect(await runNamed(`corrupt-${backend}`)).toBeUndefined();
  });

  test("a shard missing from data/ is a warning; the parquet and the shards must agree", async () => {
    const dir = copyRelease(`partial-${backend}`);
    fs.rmSync(path.join(dir, "data/tasks-00002.tar"));
    const s = await ingestPath(database.db, dir);
    expect(s.tasksNew).toBe(50);
    expect(s.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`)).toEqual(["metadata/shard_manifest.jsonl:3: shard tasks-00002.tar is not in data/: its 10 tasks are not imported"]);

    // A shard the parquet does not describe: its tasks are named in a warning, the parquet's own
    // tasks of that shard that it lacks are issues with their rows.
    const other = copyRelease(`disagree-${backend}`);
    await writeShard(path.join(other, "data/tasks-00002.tar"), [
      { name: "tasks/rts_task_ffff000011112222/instruction.md", body: "# Do it\n" },
      { name: "tasks/rts_task_ffff000011112222/solution/solve.sh", body: "#!/bin/bash\nls\n" },
    ]);
    fs.rmSync(path.join(other, "metadata/shard_manifest.jsonl"));
    const err = (await ingestPath(database.db, other).catch((e: unknown) => e)) as IngestError;
    const messages = err.issues.map((i) => `${i.file}: ${i.message}`);
    expect(messages).toHaveLength(10);
    for (const m of messages) expect(m).toMatch(/^metadata\/tasks\.parquet: row \d+: task rts_task_[0-9a-f]{16} is in no shard \(the row says tasks-00002\.tar\)$/);
    expect(await runNamed(`disagree-${backend}`)).toBeUndefined();
  });

  test("links, split tasks and files outside a task are refused with the shard and the entry", async () => {
    const dir = path.join(root, `bad-${backend}`);
    fs.mkdirSync(path.join(dir, "data"), { recursive: true });
    await writeShard(path.join(dir, "data/tasks-00000.tar"), [
      { name: "tasks/rts_task_a/instruction.md", body: "# A\n" },
      { name: "tasks/rts_task_b/instruction.md", body: "# B\n" },
      { name: "tasks/rts_task_a/task.toml", body: 'version = "1.0"\n' },
      { name: "tasks/rts_task_b/secret", type: "symlink" },
      { name: "README", body: "hi\n" },
    ]);
    const err = (await ingestPath(database.db, dir).catch((e: unknown) => e)) as IngestError;
    expect(err.issues.map((i) => `${i.file}: ${i.message}`)).toEqual([
      "data/tasks-00000.tar: tasks/rts_task_a/task.toml: task rts_task_a appears again after other tasks: its entries must be together",
      "data/tasks-00000.tar: tasks/rts_task_b/secret: links are not imported",
      "data/tasks-00000.tar: README: a file outside any task directory (expected tasks/<id>/…), not imported",
    ]);
    expect(await runNamed(`bad-${backend}`)).toBeUndefined();
  });

  test("a release packed as a tar.gz imports from the archive, under its folder's or the archive's name", async () => {
    const { gzipSync } = await import("node:zlib");
    const inFolder = path.join(root, `packed-${backend}.tar.gz`);
    fs.writeFileSync(inFolder, gzipSync(await packDirectory(release, `folder-${backend}`)));
    expect(await ingestPath(database.db, inFolder)).toMatchObject({ format: "release", run: `folder-${backend}`, tasksNew: 60 });
    const atRoot = path.join(root, `bare-root-${backend}.tar`);
    fs.writeFileSync(atRoot, await packDirectory(release, ""));
    expect(await ingestPath(database.db, atRoot)).toMatchObject({ format: "release", run: `bare-root-${backend}`, tasksNew: 60 });
    const broken = path.join(root, `broken-${backend}.tgz`);
    fs.writeFileSync(broken, Buffer.from("not gzip at all"));
    const err = (await ingestPath(database.db, broken).catch((e: unknown) => e)) as IngestError;
    expect(err.issues[0]?.file).toBe(broken);
  });

  test("shards alone (no metadata), gzipped, import under --run", async () => {
    const dir = path.join(root, `bare-${backend}`);
    fs.mkdirSync(path.join(dir, "data"), { recursive: true });
    const { gzipSync } = await import("node:zlib");
    fs.writeFileSync(path.join(dir, "data/tasks-00000.tar.gz"), gzipSync(fs.readFileSync(path.join(release, "data/tasks-00000.tar"))));
    const s = await ingestPath(database.db, dir, { runName: `bare-${backend}` });
    expect(s).toMatchObject({ format: "release", tasksNew: 25, warnings: [] });
  });
});
