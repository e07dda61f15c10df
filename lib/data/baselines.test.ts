// Saved baselines through the data layer: who may save, list and delete, what is audited, and
// that a baseline keeps the numbers of the moment it was saved.
import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { auditLog, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { AuthError, type Actor } from "@/lib/auth/actor";
import type { Role } from "@/lib/domain";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { deleteBaseline, getBaseline, listBaselines, saveBaseline } from "./baselines";
import { clearRoundCache, getRoundDetail } from "./rounds";

const actor = (role: Role): Actor => ({ kind: "user", id: `${role}-id`, label: `${role}@example.org`, role, userId: null });

describe.each(BACKENDS)("saved baselines on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";

  const auditOf = (action: string, id: number) =>
    database.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(id))));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    clearRoundCache();
    dir = writeFixtureRun("bl");
    await ingestPath(database.db, dir);
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a reviewer saves the server's statistics of a run and slice; the save is audited", async () => {
    const saved = await saveBaseline(actor("reviewer"), { name: "spring", run: "bl", slice: { review: "unreviewed" } });
    if (!saved.ok) throw new Error(saved.message);
    const live = await getRoundDetail(actor("viewer"), "bl", { review: "unreviewed" });
    expect(saved.baseline).toMatchObject({ name: "spring", run: "bl", slice: { review: "unreviewed" }, created_by: "reviewer@example.org" });
    expect(saved.baseline.rounds).toBe(live?.rounds.length);
    expect(saved.baseline.candidates).toBe(live?.rounds.reduce((n, r) => n + r.candidates, 0));
    const full = await getBaseline(actor("viewer"), saved.baseline.id);
    expect(full?.stats).toEqual(JSON.parse(JSON.stringify(live)));
    const audit = await auditOf("baseline.create", saved.baseline.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorLabel: "reviewer@example.org", targetType: "baseline", details: { name: "spring", run: "bl" } });
    expect((await listBaselines(actor("viewer"))).map((b) => b.name)).toContain("spring");
  });

  test("a taken name, an unknown run and an empty slice save nothing", async () => {
    const first = await saveBaseline(actor("admin"), { name: "twice", run: "bl", slice: {} });
    expect(first.ok).toBe(true);
    expect(await saveBaseline(actor("admin"), { name: "twice", run: "bl", slice: {} })).toMatchObject({ ok: false, problem: "name_taken" });
    expect(await saveBaseline(actor("admin"), { name: "ghost", run: "nope", slice: {} })).toMatchObject({ ok: false, problem: "run_not_found" });
    expect(await saveBaseline(actor("admin"), { name: "empty", run: "bl", slice: { review: "skipped" } })).toMatchObject({ ok: false, problem: "empty_slice" });
    const names = (await listBaselines(actor("viewer"))).map((b) => b.name);
    expect(names.filter((n) => n === "twice")).toHaveLength(1);
    expect(names).not.toContain("ghost");
    expect(names).not.toContain("empty");
    const creates = await database.db.select().from(auditLog).where(eq(auditLog.action, "baseline.create"));
    expect(creates.filter((a) => (a.details as { name?: string }).name === "twice")).toHaveLength(1);
  });

  test("a baseline keeps its numbers when the run's data changes", async () => {
    const saved = await saveBaseline(actor("reviewer"), { name: "frozen", run: "bl", slice: {} });
    if (!saved.ok) throw new Error(saved.message);
    const before = await getBaseline(actor("viewer"), saved.baseline.id);
    await database.db.update(tasks).set({ status: "rejected" }).where(eq(tasks.status, "accepted"));
    clearRoundCache();
    const live = await getRoundDetail(actor("viewer"), "bl", {});
    expect(live?.rounds.every((r) => r.accepted === 0)).toBe(true);
    const after = await getBaseline(actor("viewer"), saved.baseline.id);
    expect(after?.stats).toEqual(before?.stats);
    expect(after?.stats.rounds.some((r) => r.accepted > 0)).toBe(true);
  });

  test("viewers cannot save, reviewers cannot delete; an admin's delete is audited", async () => {
    await expect(saveBaseline(actor("viewer"), { name: "nope", run: "bl", slice: {} })).rejects.toBeInstanceOf(AuthError);
    await expect(saveBaseline(null, { name: "nope", run: "bl", slice: {} })).rejects.toMatchObject({ status: 401 });
    const saved = await saveBaseline(actor("reviewer"), { name: "short-lived", run: "bl", slice: {} });
    if (!saved.ok) throw new Error(saved.message);
    await expect(deleteBaseline(actor("reviewer"), saved.baseline.id)).rejects.toMatchObject({ status: 403 });
    expect(await getBaseline(actor("viewer"), saved.baseline.id)).not.toBeNull();
    expect(await deleteBaseline(actor("admin"), saved.baseline.id)).toBe(true);
    expect(await getBaseline(actor("viewer"), saved.baseline.id)).toBeNull();
    expect(await auditOf("baseline.delete", saved.baseline.id)).toMatchObject([{ actorLabel: "admin@example.org", details: { name: "short-lived", run: "bl" } }]);
    expect(await deleteBaseline(actor("admin"), saved.baseline.id)).toBe(false);
    expect(await auditOf("baseline.delete", saved.baseline.id)).toHaveLength(1);
  });
});
