// A click on a Rounds chart opens the task table: for every rejection-reason segment and every bar
// of a seed family, the link's filter must count exactly the number the chart shows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NO_REASON } from "@/lib/domain";
import { generateRun } from "@/lib/generate";
import { ingestPath } from "@/lib/ingest";
import { tasksHref } from "@/lib/rounds/url-state";
import { parseTaskFilter } from "@/lib/tasks/filter";
import { tasks } from "../schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "../testing";
import { getRoundDetail, listSeedFamilies } from "./stats";
import { listTasks } from "./tasks";

describe.each(BACKENDS)("chart click-through on %s", (backend) => {
  let database: TestDatabase;
  let dir: string;

  /** The task table's total for a chart link, through the same parser as the page and the API. */
  async function countOf(href: string | null): Promise<number> {
    if (!href) throw new Error("the mark has no link");
    const parsed = parseTaskFilter(new URL(href, "http://localhost").searchParams);
    if (!parsed.ok) throw parsed.error;
    // limit 1: the total comes from the count query, not from a short page.
    const list = await listTasks(database.db, { ...parsed.filter, limit: 1 });
    expect(list.total_is_estimate).toBe(false);
    return list.total;
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-click-"));
    await generateRun({ out: path.join(dir, "run"), tasks: 150, rounds: 6, seed: 11, name: "ct" });
    database = await createTestDatabase(backend);
    await ingestPath(database.db, path.join(dir, "run"));
    // A pipeline may reject without a reason: the chart counts those as NO_REASON.
    await database.db
      .update(tasks)
      .set({ rejectionReason: null })
      .where(and(eq(tasks.status, "rejected"), eq(tasks.round, 2), sql`${tasks.id} % 3 = 0`));
  }, 300_000);
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("every rejection-reason segment opens exactly its tasks", async () => {
    const detail = await getRoundDetail(database.db, "ct");
    let segments = 0;
    let narrower = 0;
    for (const r of detail?.rounds ?? []) {
      for (const x of r.rejection_reasons) {
        const href = tasksHref("ct", {}, r.round, { status: "rejected", reason: x.reason });
        expect(await countOf(href), `round ${r.round} ${x.reason}`).toBe(x.count);
        segments++;
        if (x.count < r.rejected) narrower++;
      }
    }
    // Several reasons per round: a link that ignored `reason` would count the whole round.
    expect(segments).toBeGreaterThan(6);
    expect(narrower).toBeGreaterThan(3);
    expect(detail?.rounds.find((r) => r.round === 2)?.rejection_reasons.some((x) => x.reason === NO_REASON)).toBe(true);
  });

  test("a seed family's bars and segments open exactly the family's tasks", async () => {
    const families = await listSeedFamilies(database.db, "ct");
    const seed = families.find((f) => f.tasks >= 5);
    if (!seed) throw new Error("no seed family with five tasks");
    const slice = { root: seed.id };
    const family = await getRoundDetail(database.db, "ct", slice);
    const whole = await getRoundDetail(database.db, "ct");
    let narrower = 0;
    for (const r of family?.rounds ?? []) {
      expect(await countOf(tasksHref("ct", slice, r.round, { status: "accepted" })), `round ${r.round}`).toBe(r.accepted);
      for (const x of r.rejection_reasons) {
        expect(await countOf(tasksHref("ct", slice, r.round, { status: "rejected", reason: x.reason }))).toBe(x.count);
      }
      if (r.accepted < (whole?.rounds.find((w) => w.round === r.round)?.accepted ?? 0)) narrower++;
    }
    // The family is a small part of each round: a link that ignored `root` would count them all.
    expect(narrower).toBeGreaterThan(0);
    expect(await countOf(`/tasks?run=ct&root=${seed.id}`)).toBe(seed.tasks);
  });
});
