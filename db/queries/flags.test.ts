// The flags store on both databases: manual flags, filters and pages, counts per rule, round and
// operator, dismissals that hold for their content, outdated flags never counted, audit rows.
import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditLog, flags, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import type { Actor } from "@/lib/auth/actor";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { createUser } from "./users";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { countFlags, createManualFlag, getFlag, listFlags, refreshOpenFlags, setFlagStatus } from "./flags";
import { findTaskIds, listTasks } from "./tasks";

const TOKEN: Actor = { kind: "token", id: "token:7", label: 'token "nightly"', role: "reviewer", userId: null };

describe.each(BACKENDS)("flags on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";
  let ids = new Map<string, number>();
  let reviewer: Actor;
  const task = (ext: string) => ids.get(ext) ?? 0;
  const openFlagsOf = async (id: number) => (await database.db.select({ n: tasks.openFlags }).from(tasks).where(eq(tasks.id, id)))[0]?.n;
  const hashOf = async (id: number) => (await database.db.select({ h: tasks.contentHash }).from(tasks).where(eq(tasks.id, id)))[0]?.h ?? "";

  /** What the rule engine does: an automatic flag on the task's current content, then the recount. */
  async function autoFlag(ext: string, rule: string, evidence: Record<string, unknown> = {}, hash?: string) {
    const taskId = task(ext);
    const [row] = await database.db
      .insert(flags)
      .values({ taskId, rule, source: "auto", severity: "high", message: `${rule} on ${ext}`, evidence, contentHash: hash ?? (await hashOf(taskId)) })
      .returning({ id: flags.id });
    await refreshOpenFlags(database.db, [taskId]);
    return row?.id ?? 0;
  }

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    dir = writeFixtureRun("fl");
    await ingestPath(database.db, dir);
    ids = await findTaskIds(database.db, "fl", ["s1", "s2", "a1", "a2", "b1"]);
    const u = await createUser(database.db, { email: "rev@example.org", role: "reviewer", password: "correct horse battery staple" }, CLI_ACTOR);
    reviewer = { kind: "user", id: u.id, label: "rev@example.org", role: "reviewer", userId: u.id };
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a manual flag is tied to the task's current content, audited, counted, and names its author", async () => {
    const id = task("a1");
    const flag = await createManualFlag(database.db, { taskId: id, message: "the report is never checked", severity: "high", evidence: { file: "tests/test_outputs.py", line: 3 } }, reviewer);
    expect(flag).toMatchObject({
      task_id: id,
      task_ext_id: "a1",
      run: "fl",
      round: 1,
      operator: "append-step",
      rule: "manual",
      source: "manual",
      status: "open",
      outdated: false,
      severity: "high",
      message: "the report is never checked",
      content_hash: await hashOf(id),
      created_by: "rev@example.org",
      evidence_href: `/tasks/${id}?file=tests%2Ftest_outputs.py#L3`,
    });
    expect(await openFlagsOf(id)).toBe(1);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "flag.create"));
    expect(audit.map((a) => [a.targetId, a.actorLabel, a.details.task_id])).toEqual([[String(flag?.id), "rev@example.org", id]]);
    expect(await createManualFlag(database.db, { taskId: 999_999, message: "x", severity: "low", evidence: {} }, reviewer)).toBeNull();
  });

  test("a token's flag and its dismissal carry the token's label", async () => {
    const flag = await createManualFlag(database.db, { taskId: task("b1"), message: "by script", severity: "low", evidence: {} }, TOKEN);
    expect(flag?.created_by).toBe('token "nightly"');
    const r = await setFlagStatus(database.db, flag?.id ?? 0, { status: "dismissed", reason: "noise" }, TOKEN);
    expect(r.ok && r.flag).toMatchObject({ status: "dismissed", resolved_by: 'token "nightly"', resolution: "noise" });
    expect(await openFlagsOf(task("b1"))).toBe(0);
  });

  test("dismiss, resolve and reopen: audited once each, a repeat changes nothing, the count follows", async () => {
    const id = await autoFlag("s1", "nop-passes", { trial_id: 1, log: "verifier/test-stdout.txt", log_line: 12 });
    expect(await openFlagsOf(task("s1"))).toBe(1);
    const dismissed = await setFlagStatus(database.db, id, { status: "dismissed", reason: "the nop trial is stale" }, reviewer);
    expect(dismissed).toMatchObject({ ok: true, changed: true, flag: { status: "dismissed", resolution: "the nop trial is stale", resolved_by: "rev@example.org" } });
    expect(await openFlagsOf(task("s1"))).toBe(0);
    expect(await setFlagStatus(database.db, id, { status: "dismissed", reason: "again" }, reviewer)).toMatchObject({ ok: true, changed: false, flag: { resolution: "the nop trial is stale" } });
    const reopened = await setFlagStatus(database.db, id, { status: "open", reason: null }, reviewer);
    expect(reopened).toMatchObject({ ok: true, flag: { status: "open", resolution: null, resolved_by: null, resolved_at: null } });
    expect(await openFlagsOf(task("s1"))).toBe(1);
    await setFlagStatus(database.db, id, { status: "resolved", reason: "verifier fixed upstream" }, reviewer);
    expect(await openFlagsOf(task("s1"))).toBe(0);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.targetId, String(id)));
    expect(audit.map((a) => [a.action, a.details.from, a.details.to, a.details.reason])).toEqual([
      ["flag.dismiss", "open", "dismissed", "the nop trial is stale"],
      ["flag.reopen", "dismissed", "open", null],
      ["flag.resolve", "open", "resolved", "verifier fixed upstream"],
    ]);
    expect(await setFlagStatus(database.db, 999_999, { status: "dismissed", reason: "x" }, reviewer)).toEqual({ ok: false, problem: "not_found" });
  });

  test("an automatic flag on an older revision is outdated: listed as such, never counted open; a dismissal holds for its content", async () => {
    const s2 = task("s2");
    const old = await autoFlag("s2", "oracle-fails", {}, "an-older-content-hash");
    const current = await autoFlag("s2", "oracle-fails");
    expect(await openFlagsOf(s2)).toBe(1);
    expect((await getFlag(database.db, old))?.outdated).toBe(true);
    expect((await getFlag(database.db, current))?.outdated).toBe(false);
    await setFlagStatus(database.db, current, { status: "dismissed", reason: "oracle timeout, infra" }, reviewer);
    // The engine re-running on the same content finds its flag by (task, rule, hash) and leaves it.
    await database.db.execute(sql`INSERT INTO flags (task_id, rule, source, severity, message, content_hash)
      VALUES (${s2}, 'oracle-fails', 'auto', 'high', 'again', ${await hashOf(s2)}) ON CONFLICT DO NOTHING`);
    await refreshOpenFlags(database.db, [s2]);
    expect((await getFlag(database.db, current))?.status).toBe("dismissed");
    expect(await openFlagsOf(s2)).toBe(0);
    const outdated = await listFlags(database.db, { run: "fl", status: "outdated", limit: 50 });
    expect(outdated.items.map((f) => f.id)).toEqual([old]);
    const open = await listFlags(database.db, { run: "fl", status: "open", taskId: s2, limit: 50 });
    expect(open.items).toEqual([]);
  });

  test("filters by rule, source, round, operator (seeds by '(none)'), task and status; keyset pages", async () => {
    await autoFlag("a2", "parent-solution-passes", { compare_task_id: task("s2"), file: "tests/test_outputs.py", line: 2 });
    await autoFlag("b1", "parent-solution-passes", { trial_id: 3, test: "test_report" });
    const all = await listFlags(database.db, { run: "fl", limit: 500 });
    expect(all.items.map((f) => f.id)).toEqual([...all.items.map((f) => f.id)].sort((a, b) => b - a));
    const psp = await listFlags(database.db, { run: "fl", rule: "parent-solution-passes", limit: 50 });
    expect(psp.items.map((f) => f.task_ext_id).sort()).toEqual(["a2", "b1"]);
    expect(psp.items.find((f) => f.task_ext_id === "b1")?.evidence_href).toBe(`/tasks/${task("b1")}#trial-3`);
    // The diff anchor: the file's place among both tasks' paths in reviewing order (solve.sh, tests/…).
    expect(psp.items.find((f) => f.task_ext_id === "a2")?.evidence_href).toBe(
      `/tasks/${task("a2")}/diff?against=${task("s2")}&file=tests%2Ftest_outputs.py#f2-L2`,
    );
    expect((await listFlags(database.db, { run: "fl", source: "manual", limit: 50 })).items.every((f) => f.source === "manual")).toBe(true);
    expect((await listFlags(database.db, { run: "fl", round: 2, limit: 50 })).items.every((f) => f.task_ext_id === "b1")).toBe(true);
    expect((await listFlags(database.db, { run: "fl", operator: "(none)", limit: 50 })).items.map((f) => f.task_ext_id).every((t) => t === "s1" || t === "s2")).toBe(true);
    expect((await listFlags(database.db, { run: "fl", operator: "append-step", status: "open", limit: 50 })).items.map((f) => f.task_ext_id).sort()).toEqual(["a1", "a2", "b1"]);
    expect((await listFlags(database.db, { run: "nope", limit: 50 })).items).toEqual([]);
    const first = await listFlags(database.db, { run: "fl", limit: 2 });
    const second = await listFlags(database.db, { run: "fl", limit: 2, before: first.next ?? 0 });
    expect(first.items).toHaveLength(2);
    expect(second.items[0]?.id).toBeLessThan(first.items[1]?.id ?? 0);
    const pages = [...first.items];
    let next: number | null = first.next;
    while (next !== null) {
      const page = await listFlags(database.db, { run: "fl", limit: 2, before: next });
      pages.push(...page.items);
      next = page.next;
    }
    expect(pages.map((f) => f.id)).toEqual(all.items.map((f) => f.id));
  });

  test("counts per rule by status and open flags per rule × round and rule × operator", async () => {
    const c = await countFlags(database.db, { run: "fl" });
    const rule = (r: string) => c.rules.find((x) => x.rule === r);
    expect(rule("oracle-fails")).toEqual({ rule: "oracle-fails", open: 0, outdated: 1, resolved: 0, dismissed: 1 });
    expect(rule("parent-solution-passes")).toEqual({ rule: "parent-solution-passes", open: 2, outdated: 0, resolved: 0, dismissed: 0 });
    expect(rule("manual")).toEqual({ rule: "manual", open: 1, outdated: 0, resolved: 0, dismissed: 1 });
    expect(rule("nop-passes")).toMatchObject({ open: 0, resolved: 1 });
    expect(c.by_round).toEqual([
      { rule: "manual", key: "1", count: 1 },
      { rule: "parent-solution-passes", key: "1", count: 1 },
      { rule: "parent-solution-passes", key: "2", count: 1 },
    ]);
    expect(c.by_operator).toEqual([
      { rule: "manual", key: "append-step", count: 1 },
      { rule: "parent-solution-passes", key: "append-step", count: 2 },
    ]);
    // The matrices agree with the per-task counts the tables show.
    const total = await database.db.select({ n: sql<number>`sum(open_flags)`.mapWith(Number) }).from(tasks);
    expect(c.by_round.reduce((n, x) => n + x.count, 0)).toBe(total[0]?.n);
    expect((await countFlags(database.db, { run: "nope" })).rules).toEqual([]);
  });

  test("a new revision of the task turns its automatic flags outdated once recounted; manual flags stay open", async () => {
    const a2 = task("a2");
    await autoFlag("a2", "weakened-verifier");
    await createManualFlag(database.db, { taskId: a2, message: "look at this", severity: "medium", evidence: {} }, reviewer);
    expect(await openFlagsOf(a2)).toBe(3);
    await database.db.update(tasks).set({ contentHash: "new-revision" }).where(eq(tasks.id, a2));
    await refreshOpenFlags(database.db, [a2]);
    expect(await openFlagsOf(a2)).toBe(1);
    const listed = await listFlags(database.db, { taskId: a2, limit: 50 });
    expect(listed.items.filter((f) => f.outdated).map((f) => f.rule).sort()).toEqual(["parent-solution-passes", "weakened-verifier"]);
    expect(listed.items.filter((f) => !f.outdated).map((f) => f.rule)).toEqual(["manual"]);
    // The task table's "flagged by rule X" filter agrees: outdated flags do not match.
    const ext = async (flag: string) => (await listTasks(database.db, { run: "fl", flag, limit: 50 })).items.map((t) => t.task_id).sort();
    expect(await ext("weakened-verifier")).toEqual([]);
    expect(await ext("manual")).toEqual(["a1", "a2"]);
    expect(await ext("any")).toEqual(["a1", "a2", "b1"]);
  });
});
