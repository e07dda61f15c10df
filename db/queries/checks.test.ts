import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows } from "@/db/client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { accuracy, parseTruth } from "@/lib/checks/accuracy";
import { runChecks } from "@/lib/checks";
import { generateRun } from "@/lib/generate";
import { ingestPath } from "@/lib/ingest";
import { openAutoFlags } from "./checks";

describe.each(BACKENDS)("consistency checks on %s", (backend) => {
  let database: TestDatabase;
  let dir: string;
  let runId: number;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-checks-"));
    await generateRun({ out: dir, tasks: 90, rounds: 5, seed: 11, name: "chk" });
  }, 120_000);
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const flags = (where = sql`true`) =>
    execRows<{ id: number; task_id: number; rule: string; status: string; content_hash: string; evidence: Record<string, unknown> }>(
      database.db,
      sql`SELECT id, task_id, rule, status, content_hash, evidence FROM flags WHERE source = 'auto' AND ${where} ORDER BY id`,
    );

  test("ingest runs the checks: flags on the injected defects, tied to content, evidence on real trials and lines", async () => {
    const s = await ingestPath(database.db, dir, { threads: 0 });
    runId = s.runId;
    expect(s.checks).toBeDefined();
    const all = await flags();
    expect(all.length).toBe(Object.values(s.checks ?? {}).reduce((a, b) => a + b, 0));
    const truth = parseTruth(fs.readFileSync(path.join(dir, "truth.jsonl"), "utf8"));
    const acc = accuracy(await openAutoFlags(database.db, runId), truth);
    const tp = acc.reduce((n, r) => n + r.truePositives, 0);
    expect(tp).toBeGreaterThanOrEqual(truth.length - 1);
    for (const r of acc) expect(r.falsePositives).toBe(0);
    // Evidence points at a real trial of the task and at a real line of a real file.
    for (const f of all) {
      const e = f.evidence as { trial_id?: number; file?: string; line?: number };
      if (e.trial_id !== undefined) {
        const [t] = await execRows<{ task_id: number }>(database.db, sql`SELECT task_id FROM trials WHERE id = ${e.trial_id}`);
        expect(Number(t?.task_id)).toBe(Number(f.task_id));
      }
      if (e.file !== undefined && e.line !== undefined) {
        const [row] = await execRows<{ content: string }>(
          database.db,
          sql`SELECT b.content FROM task_files tf JOIN blobs b ON b.hash = tf.blob_hash WHERE tf.task_id = ${f.task_id} AND tf.path = ${e.file}`,
        );
        expect(row, `${f.rule}: ${e.file}`).toBeDefined();
        expect(e.line).toBeLessThanOrEqual((row?.content ?? "").split("\n").length);
      }
    }
    const [counted] = await execRows<{ n: number }>(database.db, sql`SELECT sum(open_flags)::int AS n FROM tasks WHERE run_id = ${runId}`);
    expect(Number(counted?.n)).toBe(all.length);
  }, 300_000);

  test("a second run adds nothing; a dismissed flag stays dismissed; a flag that no longer fires is resolved", async () => {
    const before = await flags();
    const dismissed = before[0]!;
    await database.db.execute(sql`UPDATE flags SET status = 'dismissed', resolution = 'fine' WHERE id = ${dismissed.id}`);
    // A flag of a rule that does not fire on that task's content.
    const quiet = before.find((f) => f.rule !== "missing-validation")!;
    await database.db.execute(
      sql`INSERT INTO flags (task_id, rule, source, status, severity, message, evidence, content_hash)
          SELECT id, 'missing-validation', 'auto', 'open', 'medium', 'stale', '{}'::jsonb, content_hash FROM tasks WHERE id = ${quiet.task_id}`,
    );
    const s = await runChecks(database.db, { runId });
    expect(s.inserted).toBe(0);
    expect(s.resolved).toBe(1);
    const after = await flags();
    expect(after.find((f) => f.id === dismissed.id)?.status).toBe("dismissed");
    expect(after.filter((f) => f.status === "open").length).toBe(before.length - 1);
    const [audit] = await execRows<{ details: { counts: Record<string, number> } }>(
      database.db,
      sql`SELECT details FROM audit_log WHERE action = 'check' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit?.details.counts).toEqual(s.counts);
  }, 300_000);

  test("changed content is evaluated again: the old flag stays with the old content and stops counting", async () => {
    // missing-validation reads no trial, so it fires again on the new content.
    const [f] = await flags(sql`rule = 'missing-validation' AND status = 'open'`);
    expect(f).toBeDefined();
    const [task] = await execRows<{ ext_id: string }>(database.db, sql`SELECT ext_id FROM tasks WHERE id = ${f!.task_id}`);
    fs.appendFileSync(path.join(dir, "tasks", task!.ext_id, "instruction.md"), "\nOne more sentence.\n");
    const s = await ingestPath(database.db, dir, { threads: 0 });
    expect(s.tasksChanged).toBe(1);
    const mine = await flags(sql`task_id = ${f!.task_id}`);
    const [t] = await execRows<{ content_hash: string; open_flags: number }>(database.db, sql`SELECT content_hash, open_flags FROM tasks WHERE id = ${f!.task_id}`);
    expect(t?.content_hash).not.toBe(f!.content_hash);
    expect(mine.find((x) => x.id === f!.id)).toMatchObject({ status: "open", content_hash: f!.content_hash });
    expect(mine.filter((x) => x.rule === "missing-validation" && x.content_hash === t?.content_hash)).toHaveLength(1);
    expect(Number(t?.open_flags)).toBe(mine.filter((x) => x.status === "open" && x.content_hash === t?.content_hash).length);
  }, 300_000);

  test("the checks read what the import stored of each file; parsing again finds the same", async () => {
    const [stored] = await execRows<{ pytest: number; shell: number }>(
      database.db,
      sql`SELECT count(*) FILTER (WHERE reader LIKE 'pytest@%')::int AS pytest, count(*) FILTER (WHERE reader LIKE 'shell@%')::int AS shell FROM check_readings`,
    );
    expect(Number(stored?.pytest)).toBeGreaterThan(50);
    expect(Number(stored?.shell)).toBeGreaterThan(50);
    const dump = async (reparse: boolean) => {
      const out: string[] = [];
      await runChecks(database.db, { runId, threads: 0, reparse, onFindings: (fs) => out.push(...fs.map((f) => JSON.stringify(f))) });
      return out.sort();
    };
    const fromStored = await dump(false);
    expect(fromStored.length).toBeGreaterThan(0);
    expect(await dump(true)).toEqual(fromStored);
    // What is stored is what is read: verifiers read as testing nothing change the findings…
    await database.db.execute(sql`UPDATE check_readings SET reading = '{"tests":[],"asserts":0,"paths":[]}'::jsonb WHERE reader LIKE 'pytest@%'`);
    expect(await dump(false)).not.toEqual(fromStored);
    // …and without stored readings the files are parsed.
    await database.db.execute(sql`DELETE FROM check_readings`);
    expect(await dump(false)).toEqual(fromStored);
  }, 300_000);

  test("checker threads, small batches (parents in earlier batches) and inline give the same findings", async () => {
    // Every child's tests as its parent's: verifier-not-updated, a rule that reads the parent,
    // fires on each child whose solution changed (runs last: it rewrites the run's files).
    await database.db.execute(
      sql`UPDATE task_files c SET blob_hash = p.blob_hash FROM tasks t, task_files p
          WHERE c.task_id = t.id AND p.task_id = t.parent_id AND p.path = c.path AND c.path LIKE 'tests/%' AND t.run_id = ${runId}`,
    );
    // New content, new hash (what readings are cached by).
    await database.db.execute(sql`UPDATE tasks SET content_hash = content_hash || '-t' WHERE run_id = ${runId} AND parent_id IS NOT NULL`);
    const dump = async (threads: number, batchSize: number) => {
      const out: string[] = [];
      await runChecks(database.db, { runId, threads, batchSize, onFindings: (fs) => out.push(...fs.map((f) => JSON.stringify(f))) });
      return out.sort();
    };
    const inline = await dump(0, 400);
    expect(inline.filter((f) => f.includes('"rule":"verifier-not-updated"')).length).toBeGreaterThan(10);
    expect(await dump(2, 7)).toEqual(inline);
    expect(await dump(0, 3)).toEqual(inline);
  }, 300_000);
});
