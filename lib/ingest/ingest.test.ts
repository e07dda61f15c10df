import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { execRows } from "@/db/client";
import { listRuns } from "@/db/queries/runs";
import { getRoundStats } from "@/db/queries/stats";
import { taskSnippets } from "@/db/queries/task-snippets";
import { findTaskIds, getTask, getTaskFile, listTasks } from "@/db/queries/tasks";
import { auditLog, imports, runs, tasks, trialLogs, trials } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { IngestError } from "./errors";
import { writeFixtureRun, writeTask } from "./fixtures";
import { ingestPath } from "./index";
import { keptParents } from "./native/read-candidate";

/** Set to make the database look like one whose to_tsvector differs from the readers' vectors. */
const vectors = vi.hoisted(() => ({ disagree: false, asked: 0 }));
vi.mock("@/db/queries/ingest-settings", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/db/queries/ingest-settings")>();
  return {
    ...real,
    agreesOnVectors: async (...args: Parameters<typeof real.agreesOnVectors>) => {
      vectors.asked++;
      return vectors.disagree ? false : real.agreesOnVectors(...args);
    },
  };
});

describe.each(BACKENDS)("native ingest on %s", (backend) => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const fixture = (name?: string) => {
    const d = writeFixtureRun(name);
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database.close();
  });
  afterEach(async () => {
    await database.db.execute(sql`TRUNCATE runs, blobs, imports, audit_log RESTART IDENTITY CASCADE`);
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  const count = async (table: typeof tasks | typeof trials | typeof trialLogs) =>
    Number((await database.db.select({ n: sql<number>`count(*)` }).from(table))[0]?.n);

  test("imports tasks, lineage, files, trials, evals and metrics", async () => {
    const dir = fixture("fx");
    const s = await ingestPath(database.db, dir);
    expect(s).toMatchObject({ run: "fx", tasksNew: 5, trialsNew: 10, unchanged: false });
    const ids = await findTaskIds(database.db, "fx", ["s1", "a1", "b1", "a2"]);
    const b1 = await getTask(database.db, ids.get("b1") ?? 0);
    expect(b1?.parent?.task_id).toBe("a1");
    expect(b1?.root_id).toBe(ids.get("s1"));
    expect(b1?.depth).toBe(2);
    expect(b1?.metadata).toMatchObject({ metadata: { unknown_key: 3 } });
    expect(b1?.solution_lines).toBe(4);
    expect(b1?.commands).toBe(5); // set, mkdir, echo, cat, grep
    expect(b1?.distinct_tools).toBe(3); // mkdir, cat, grep
    expect(b1?.verifier_tests).toBe(1);
    expect(b1?.files.map((f) => f.path)).toContain("solution/solve.sh");
    const a1 = await getTask(database.db, ids.get("a1") ?? 0);
    expect(a1?.children.map((c) => c.task_id)).toEqual(["b1"]);
    // a1 is the third accepted task: n=8, c=4 → pass@4 = 1 - C(4,4)/C(8,4) = 1 - 1/70
    expect(a1?.pass_at_k).toBeCloseTo(1 - 1 / 70, 6);
    const log = await execRows<{ content: string }>(
      database.db,
      sql`SELECT b.content FROM trial_logs l JOIN blobs b ON b.hash = l.blob_hash WHERE l.name = 'verifier/test-stdout.txt' LIMIT 1`,
    );
    expect(log[0]?.content).toContain("\u2400end");
    // vacuumed after the commit, so the statistics can read their covering index alone
    const vacuumed = await execRows<{ n: number }>(
      database.db,
      sql`SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'tasks'`,
    );
    expect(Number(vacuumed[0]?.n)).toBeGreaterThan(0);
    // and the other tables it fills analysed, whatever autovacuum does
    const analysed = await execRows<{ relname: string }>(
      database.db,
      sql`SELECT relname FROM pg_stat_user_tables WHERE analyze_count > 0 AND relname IN ('task_files', 'blobs', 'trial_tests', 'check_readings') ORDER BY relname`,
    );
    expect(analysed.map((r) => r.relname)).toEqual(["blobs", "check_readings", "task_files", "trial_tests"]);
    const file = await getTaskFile(database.db, ids.get("a1") ?? 0, "tests/test_outputs.py");
    expect(file?.content).toContain("/app/out-1.txt");
    const stats = await getRoundStats(database.db, "fx");
    expect(stats?.rounds.map((r) => [r.round, r.accepted, r.rejected])).toEqual([
      [0, 2, 0],
      [1, 1, 1],
      [2, 1, 0],
    ]);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "ingest"));
    expect(audit).toHaveLength(1);
  });

  test("stores the run's counts at import: the runs list reads them, and counts a run that has none", async () => {
    await ingestPath(database.db, fixture("fx"));
    const [counted] = await execRows<{ seeds: number; rounds: number; accepted: number; rejected: number; trials: number }>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM tasks WHERE parent_ext_id IS NULL) AS seeds, (SELECT max(round) FROM tasks) AS rounds,
                 (SELECT count(*)::int FROM tasks WHERE status = 'accepted') AS accepted, (SELECT count(*)::int FROM tasks WHERE status = 'rejected') AS rejected,
                 (SELECT count(*)::int FROM trials) AS trials`,
    );
    expect(counted?.trials).toBeGreaterThan(0);
    expect(counted?.rejected).toBeGreaterThan(0);
    const [stored] = await database.db.select({ counts: runs.counts }).from(runs);
    expect(stored?.counts).toEqual(counted);
    expect((await listRuns(database.db))[0]).toMatchObject(counted ?? {});
    // What the list shows is what was stored, not counted again...
    await database.db.update(runs).set({ counts: { ...counted!, trials: 999 } });
    expect((await listRuns(database.db))[0]?.trials).toBe(999);
    // ...unless nothing was stored (a run imported before migration 0017).
    await database.db.update(runs).set({ counts: null });
    expect((await listRuns(database.db))[0]).toMatchObject(counted ?? {});
  });

  test("a second import of the same run adds nothing and says so", async () => {
    const dir = fixture("twice");
    await ingestPath(database.db, dir);
    const before = [await count(tasks), await count(trials), await count(trialLogs)];
    const again = await ingestPath(database.db, dir);
    expect(again).toMatchObject({ unchanged: true, tasksNew: 0, tasksChanged: 0, trialsNew: 0, tasksUnchanged: 5 });
    expect([await count(tasks), await count(trials), await count(trialLogs)]).toEqual(before);
    const statuses = (await database.db.select({ s: imports.status }).from(imports)).map((r) => r.s);
    expect(statuses).toEqual(["done", "unchanged"]);
  });

  test("changed content gets a new version and keeps the review state", async () => {
    const dir = fixture("changed");
    await ingestPath(database.db, dir);
    await database.db.update(tasks).set({ reviewState: "accepted" }).where(eq(tasks.extId, "a1"));
    writeTask(dir, { id: "a1", parent: "s1", round: 1, solve: "#!/bin/bash\nls /app\n" });
    const s = await ingestPath(database.db, dir);
    expect(s).toMatchObject({ tasksChanged: 1, tasksNew: 0, unchanged: false });
    const [a1] = await database.db.select().from(tasks).where(eq(tasks.extId, "a1"));
    expect(a1).toMatchObject({ version: 2, reviewState: "accepted", solutionLines: 1, commands: 1 });
  });

  test("a changed task is found by its new text, not its old one", async () => {
    const dir = fixture("research");
    writeTask(dir, { id: "a1", parent: "s1", round: 1, solve: "#!/bin/bash\nquokka --now\n" });
    await ingestPath(database.db, dir);
    const found = async (q: string) => (await listTasks(database.db, { run: "research", q, limit: 50 })).items.map((t) => t.task_id);
    expect(await found("quokka")).toEqual(["a1"]);
    // Where it matched, for the row: the solution's line 2, the word marked.
    const [a1] = (await listTasks(database.db, { run: "research", q: "quokka", limit: 50 })).items;
    const ids = await findTaskIds(database.db, "research", ["s1", "a1"]);
    expect((await taskSnippets(database.db, [ids.get("s1") ?? 0, a1?.id ?? 0], "quokka")).items).toEqual([
      { task: a1?.id, path: "solution/solve.sh", line: 2, text: "quokka --now", marks: [[0, 6]] },
    ]);
    // Non-ASCII text: the database builds this vector itself (lib/ingest/search-vector.ts).
    writeTask(dir, { id: "a1", parent: "s1", round: 1, solve: "#!/bin/bash\nzebra42 --café\n" });
    expect(await ingestPath(database.db, dir)).toMatchObject({ tasksChanged: 1, tasksNew: 0 });
    expect(await found("zebra42")).toEqual(["a1"]);
    expect(await found("quokka")).toEqual([]);
    writeTask(dir, { id: "a1", parent: "s1", round: 1, solve: "#!/bin/bash\nwombat\n" });
    await ingestPath(database.db, dir);
    expect(await found("wombat")).toEqual(["a1"]);
    expect(await found("zebra42")).toEqual([]);
  });

  test("a database that builds other vectors than the readers gets every task's text to build them from", async () => {
    // Readers leave the text behind when the writer takes their vectors; here it must not.
    const dir = fixture("othervectors");
    writeTask(dir, { id: "a1", parent: "s1", round: 1, solve: "#!/bin/bash\nquokka --now\n" });
    vectors.disagree = true;
    vectors.asked = 0;
    try {
      for (const threads of [0, 2]) {
        await database.db.execute(sql`TRUNCATE runs, blobs, imports, audit_log RESTART IDENTITY CASCADE`);
        expect(await ingestPath(database.db, dir, { threads })).toMatchObject({ tasksNew: 5 });
        expect((await listTasks(database.db, { run: "othervectors", q: "quokka", limit: 50 })).items.map((t) => t.task_id)).toEqual(["a1"]);
      }
    } finally {
      vectors.disagree = false;
    }
    expect(vectors.asked).toBe(2);
  });

  test("a bad line is named with file and line, and nothing is written", async () => {
    const dir = fixture("bad");
    const lineage = path.join(dir, "lineage.jsonl");
    const lines = fs.readFileSync(lineage, "utf8").split("\n");
    lines[2] = '{"task_id": "a1", "parent_id": "s1", "round": "one", "status": "accepted"}';
    lines[3] = "{not json";
    fs.writeFileSync(lineage, lines.join("\n"));
    const err = await ingestPath(database.db, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    const issues = (err as IngestError).issues;
    expect(issues).toContainEqual(expect.objectContaining({ file: "lineage.jsonl", line: 3, message: expect.stringContaining("round") }));
    expect(issues).toContainEqual(expect.objectContaining({ file: "lineage.jsonl", line: 4, message: expect.stringContaining("invalid JSON") }));
    expect(await count(tasks)).toBe(0);
    expect(await database.db.select().from(runs)).toHaveLength(0);
    expect((await database.db.select().from(imports))[0]?.status).toBe("failed");
  });

  test("unknown parents and path traversal ids are refused", async () => {
    const dir = fixture("lineage");
    fs.appendFileSync(path.join(dir, "lineage.jsonl"), `${JSON.stringify({ task_id: "../evil", parent_id: null, round: 0, status: "accepted" })}\n`);
    fs.appendFileSync(path.join(dir, "lineage.jsonl"), `${JSON.stringify({ task_id: "orphan", parent_id: "nobody", round: 3, status: "accepted" })}\n`);
    writeTask(dir, { id: "orphan", parent: "nobody", round: 3 });
    const err = (await ingestPath(database.db, dir).catch((e: unknown) => e)) as IngestError;
    const text = err.issues.map((i) => `${i.file}:${i.line ?? ""} ${i.message}`).join("\n");
    expect(text).toMatch(/lineage\.jsonl:6 task_id: must be a plain directory name/);
    expect(text).toMatch(/lineage\.jsonl:7 task orphan: parent_id nobody is not in lineage\.jsonl/);
    expect(await count(tasks)).toBe(0);
  });

  test("a crash in the middle leaves no partial run, and the next import completes", async () => {
    const dir = fixture("crash");
    await expect(
      ingestPath(database.db, dir, {
        onProgress: ({ done }) => {
          if (done === 3) throw new Error("simulated crash");
        },
      }),
    ).rejects.toThrow("simulated crash");
    expect(await count(tasks)).toBe(0);
    expect(await count(trials)).toBe(0);
    const s = await ingestPath(database.db, dir);
    expect(s.tasksNew).toBe(5);
  });

  test("the search indexes and foreign keys are the schema's after an import, and after one that fails", async () => {
    // Into PGlite an import that may add more tasks than task_search holds drops them and adds
    // them again at its end (db/queries/ingest-settings.ts tuneTransaction): new objects, new oids.
    const objects = () =>
      execRows<{ oid: string; definition: string }>(
        database.db,
        sql`SELECT indexrelid::text AS oid, pg_get_indexdef(indexrelid) AS definition FROM pg_index
            WHERE indrelid = 'task_search'::regclass
            UNION ALL
            SELECT oid::text, conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) || ' ' || convalidated
            FROM pg_constraint WHERE contype = 'f'
            ORDER BY 2`,
      );
    const definitions = (found: { definition: string }[]) => found.map((i) => i.definition);
    const schema = await objects();
    expect(schema.filter((i) => i.definition.includes("USING gin"))).toHaveLength(2);
    const filled = ["evals", "log_chunks", "task_files", "task_search", "tasks", "trial_logs", "trial_tests", "trials"];
    const dropped = definitions(schema).filter((d) => d.includes("USING gin") || filled.includes(d.split(" ")[0] ?? ""));
    // the eight tables' eleven foreign keys, and none of the others' (accounts, reviews, ...)
    expect(dropped).toHaveLength(2 + 11);
    expect(schema.length).toBeGreaterThan(dropped.length + 5);
    const dir = fixture("rebuilt");
    const crash = ({ done }: { done: number }) => {
      if (done === 3) throw new Error("simulated crash");
    };
    await expect(ingestPath(database.db, dir, { onProgress: crash })).rejects.toThrow("simulated crash");
    expect(await objects()).toEqual(schema);
    await ingestPath(database.db, dir);
    const imported = await objects();
    expect(definitions(imported)).toEqual(definitions(schema));
    const rebuilt = imported.filter((i, n) => i.oid !== schema[n]?.oid).map((i) => i.definition);
    expect(rebuilt).toEqual(backend === "pglite" ? dropped : []);
    expect((await listTasks(database.db, { run: "rebuilt", q: '"out-2.txt"', limit: 50 })).items.map((t) => t.task_id)).toEqual(["b1"]);
    // The keys hold again: a test of no trial is refused.
    const refused = await database.db.execute(sql`INSERT INTO trial_tests (trial_id, seq, name, status) VALUES (-1, 0, 'x', 'passed')`).then(
      () => null,
      (err: Error) => err.cause as Error,
    );
    expect(refused?.message).toMatch(/foreign key/);
    // The same run again, one task more: its tasks are stored already, so nothing is dropped.
    fs.appendFileSync(path.join(dir, "lineage.jsonl"), `${JSON.stringify({ task_id: "c1", parent_id: "b1", round: 3, status: "accepted" })}\n`);
    writeTask(dir, { id: "c1", parent: "b1", round: 3 });
    expect((await ingestPath(database.db, dir)).tasksNew).toBe(1);
    expect(await objects()).toEqual(imported);
    expect((await listTasks(database.db, { run: "rebuilt", q: '"out-3.txt"', limit: 50 })).items.map((t) => t.task_id)).toEqual(["c1"]);
  });

  test("reads in the calling thread too (threads: 0), with the same result, and keeps nothing after", async () => {
    // The accepted tasks' script outlines are kept while their children may come, then forgotten.
    let kept = 0;
    const s = await ingestPath(database.db, fixture("inline"), { threads: 0, onProgress: () => (kept = Math.max(kept, keptParents())) });
    expect(kept).toBeGreaterThan(0);
    expect(keptParents()).toBe(0);
    expect(s).toMatchObject({ tasksNew: 5, trialsNew: 10, files: 30 });
    const [b1] = await database.db.select().from(tasks).where(eq(tasks.extId, "b1"));
    expect(b1).toMatchObject({ solutionLines: 4, commands: 5, distinctTools: 3, depth: 2 });
  });

  test("symbolic links are refused by name, never followed", async () => {
    const dir = fixture("links");
    fs.symlinkSync("/etc/passwd", path.join(dir, "tasks", "a1", "solution", "passwd"));
    const err = (await ingestPath(database.db, dir).catch((e: unknown) => e)) as IngestError;
    expect(err).toBeInstanceOf(IngestError);
    expect(err.issues).toEqual(
      expect.arrayContaining([
        { file: "tasks/a1/solution/passwd", message: "symbolic links are not imported" },
      ]),
    );
    expect(await count(tasks)).toBe(0);
  });

  test("the task table filters, sorts, searches and pages", async () => {
    await ingestPath(database.db, fixture("table"));
    const all = await listTasks(database.db, { run: "table", limit: 2, sort: "-round" });
    expect(all.total).toBe(5);
    expect(all.items.map((t) => t.round)).toEqual([2, 1]);
    expect(all.next).not.toBeNull();
    const page2 = await listTasks(database.db, { run: "table", limit: 2, sort: "-round", cursor: all.next ?? undefined });
    expect(page2.items).toHaveLength(2);
    expect(page2.items[0]?.round).toBe(1);
    expect((await listTasks(database.db, { run: "table", status: "rejected", limit: 50 })).items.map((t) => t.task_id)).toEqual(["a2"]);
    expect((await listTasks(database.db, { q: "out-2.txt", limit: 50 })).items.map((t) => t.task_id)).toEqual(["b1"]);
    expect((await listTasks(database.db, { round_min: 1, round_max: 1, limit: 50 })).total).toBe(2);
    expect((await listTasks(database.db, { run: "nope", limit: 50 })).total).toBe(0);
    // Every search row holds its task's run (migration 0021): a search within a run is counted there.
    await ingestPath(database.db, fixture("table-twin"));
    expect((await listTasks(database.db, { q: "out-2.txt", limit: 1 })).total).toBe(2);
    const [rows] = await execRows<{ wrong: number; runs: number }>(
      database.db,
      sql`SELECT count(*) FILTER (WHERE s.run_id <> t.run_id)::int AS wrong, count(DISTINCT s.run_id)::int AS runs
          FROM task_search s JOIN tasks t ON t.id = s.task_id`,
    );
    expect(rows).toMatchObject({ wrong: 0 });
    expect(Number(rows?.runs)).toBeGreaterThan(1);
    // A full page of one: the run's total is counted (every task says "done"), the twin's not in it.
    expect(await listTasks(database.db, { run: "table", q: "done", limit: 1 })).toMatchObject({ total: 5, total_is_estimate: false });
    expect(await listTasks(database.db, { q: "done", limit: 1 })).toMatchObject({ total: 10, total_is_estimate: false });
  });
});
