// The round statistics read from the rollups equal those computed from the tasks, for every slice
// the Rounds page offers without a seed family, after the import and after every kind of write
// that changes them: a single decision, a mass UPDATE of review states, a Harbor trial import.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RoundDetailJson, RoundSliceJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { REVIEW_STATES } from "@/lib/domain";
import { generateRun } from "@/lib/generate";
import { ingestPath } from "@/lib/ingest";
import { writeTrialFiles } from "@/lib/ingest/fixtures";
import { clearRoundCache, computeRoundDetail } from "@/lib/data/rounds";
import { execRows } from "../client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "../testing";
import { recordReview } from "./reviews";
import { rebuildRoundRollups, roundRollupVersion } from "./rollups";
import { getRoundDetailByRunId, getRoundStats } from "./stats";

const REVIEWER: Actor = { kind: "token", id: "token:1", label: 'token "rollups"', role: "reviewer", userId: null };

/** Means are sums divided by counts, summed in another order than avg() does: equal to 12
 * significant digits. Everything else — counts, rates, percentiles — is compared exactly. */
function comparable(rounds: RoundDetailJson[]) {
  const close = (v: number | null) => (v === null ? null : Number(v.toPrecision(12)));
  return rounds.map((r) => ({ ...r, pass_at_k: close(r.pass_at_k), mean_reward: close(r.mean_reward) }));
}

describe.each(BACKENDS)("round rollups on %s", (backend) => {
  let database: TestDatabase;
  let dir: string;
  let runId: number;
  let categories: string[];
  let operators: string[];

  const db = () => database.db;
  const direct = (slice: RoundSliceJson) => getRoundDetailByRunId(db(), runId, slice, "tasks");
  const rolled = (slice: RoundSliceJson) => getRoundDetailByRunId(db(), runId, slice, "rollups");

  /** Whole run, every single filter, and every combination of (a few) categories, operators and
   * review states: the slices the Rounds page offers without a seed family. */
  function slices(): RoundSliceJson[] {
    const opt = <T,>(xs: readonly T[]) => [undefined, ...xs];
    const out: RoundSliceJson[] = [];
    for (const category of opt(categories.slice(0, 3)))
      for (const operator of opt(operators.slice(0, 3)))
        for (const review of opt(REVIEW_STATES)) {
          const s: RoundSliceJson = {};
          if (category !== undefined) s.category = category;
          if (operator !== undefined) s.operator = operator;
          if (review !== undefined) s.review = review;
          out.push(s);
        }
    for (const category of categories) out.push({ category });
    for (const operator of operators) out.push({ operator });
    return out;
  }

  async function expectEqualEverywhere(): Promise<number> {
    let nonEmpty = 0;
    for (const slice of slices()) {
      const want = await direct(slice);
      const got = await rolled(slice);
      expect(comparable(got), JSON.stringify(slice)).toEqual(comparable(want));
      if (want.length > 0) nonEmpty++;
    }
    return nonEmpty;
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-rollups-"));
    await generateRun({ out: path.join(dir, "run"), tasks: 200, seed: 11, name: "ru" });
    database = await createTestDatabase(backend);
    const summary = await ingestPath(database.db, path.join(dir, "run"), { threads: 0 });
    runId = summary.runId;
    const facets = await execRows<{ category: string | null; operator: string | null }>(
      database.db,
      sql`SELECT DISTINCT category, operator FROM tasks WHERE run_id = ${runId} AND round IS NOT NULL`,
    );
    categories = [...new Set(facets.map((f) => f.category).filter((c): c is string => c !== null))].sort();
    operators = [...new Set(facets.map((f) => f.operator).filter((o): o is string => o !== null))].sort();
  }, 300_000);
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the import builds the rollups, and they equal the statistics from the tasks for every slice", async () => {
    expect(await roundRollupVersion(db(), runId)).not.toBeNull();
    expect(categories.length).toBeGreaterThan(1);
    expect(operators.length).toBeGreaterThan(1);
    expect(await expectEqualEverywhere()).toBeGreaterThan(20);
  });

  test("a mass UPDATE of review states (one statement, many rows) is followed", async () => {
    const before = await roundRollupVersion(db(), runId);
    await db().execute(sql`UPDATE tasks SET review_state = (ARRAY['accepted', 'rejected', 'needs-changes', 'skipped', 'unreviewed'])[1 + id % 5]
      WHERE run_id = ${runId} AND id % 7 <> 0`);
    expect(await roundRollupVersion(db(), runId)).toBe((before ?? 0) + 1);
    for (const review of REVIEW_STATES) expect((await rolled({ review })).length, review).toBeGreaterThan(0);
    await expectEqualEverywhere();
    // Then half of them back, and an update that changes no statistics column at all.
    await db().execute(sql`UPDATE tasks SET review_state = 'unreviewed' WHERE run_id = ${runId} AND id % 2 = 0`);
    await db().execute(sql`UPDATE tasks SET open_flags = open_flags + 1 WHERE run_id = ${runId}`);
    expect(await roundRollupVersion(db(), runId)).toBe((before ?? 0) + 2);
    await expectEqualEverywhere();
  });

  test("a single decision is followed, and the cached statistics move with it", async () => {
    const [task] = await execRows<{ id: number; version: number; round: number; category: string }>(
      db(),
      sql`SELECT id, version, round, category FROM tasks WHERE run_id = ${runId} AND status = 'accepted' AND review_state <> 'rejected' AND round > 0 ORDER BY id LIMIT 1`,
    );
    if (!task) throw new Error("no task to decide");
    clearRoundCache();
    const cachedBefore = await computeRoundDetail(db(), "ru", { review: "rejected", category: task.category });
    const result = await recordReview(db(), { taskId: task.id, decision: "reject", reason: null, note: null, baseVersion: task.version }, REVIEWER);
    expect(result.ok).toBe(true);
    const cachedAfter = await computeRoundDetail(db(), "ru", { review: "rejected", category: task.category });
    expect(cachedAfter?.data_version).not.toBe(cachedBefore?.data_version);
    const acceptedIn = (d: typeof cachedAfter) => d?.rounds.find((r) => r.round === task.round)?.accepted ?? 0;
    expect(acceptedIn(cachedAfter)).toBe(acceptedIn(cachedBefore) + 1);
    await expectEqualEverywhere();
  });

  test("a mass UPDATE writes no reviews, yet invalidates the in-process cache", async () => {
    clearRoundCache();
    const first = await computeRoundDetail(db(), "ru", { review: "skipped" });
    await db().execute(sql`UPDATE tasks SET review_state = 'skipped' WHERE run_id = ${runId} AND review_state = 'needs-changes'`);
    const after = await computeRoundDetail(db(), "ru", { review: "skipped" });
    expect(after?.data_version).not.toBe(first?.data_version);
    expect(after?.rounds.reduce((n, r) => n + r.candidates, 0)).toBeGreaterThan(first?.rounds.reduce((n, r) => n + r.candidates, 0) ?? 0);
    expect(comparable(after?.rounds ?? [])).toEqual(comparable(await direct({ review: "skipped" })));
  });

  test("a Harbor trial import (a failing oracle trial) is followed", async () => {
    const [task] = await execRows<{ ext_id: string; round: number }>(
      db(),
      sql`SELECT t.ext_id, t.round FROM tasks t WHERE t.run_id = ${runId} AND t.round IS NOT NULL
        AND EXISTS (SELECT 1 FROM trials r WHERE r.task_id = t.id AND r."check" = 'oracle' AND r.reward >= 1)
        AND NOT EXISTS (SELECT 1 FROM trials r WHERE r.task_id = t.id AND r."check" = 'oracle' AND coalesce(r.reward, 0) < 1)
        ORDER BY t.id LIMIT 1`,
    );
    if (!task) throw new Error("no validated task");
    const before = (await rolled({})).find((r) => r.round === task.round);
    const jobs = fs.mkdtempSync(path.join(os.tmpdir(), "rst-rollups-jobs-"));
    try {
      writeTrialFiles(path.join(jobs, "job-1", `${task.ext_id}__late`), {
        "result.json": JSON.stringify({ trial_name: `${task.ext_id}__late`, task_name: task.ext_id, agent_info: { name: "oracle" }, verifier_result: { rewards: { reward: 0 } } }),
        "verifier/test-stdout.txt": "1 failed\n",
      });
      writeTrialFiles(path.join(jobs, "job-1"), { "result.json": "{}", "config.json": "{}" });
      const summary = await ingestPath(db(), path.join(jobs, "job-1"), { runName: "ru" });
      expect(summary).toMatchObject({ format: "harbor", trialsNew: 1 });
    } finally {
      fs.rmSync(jobs, { recursive: true, force: true });
    }
    const after = (await rolled({})).find((r) => r.round === task.round);
    expect(after?.validated).toBe(before?.validated);
    expect(after?.validation_passed).toBe((before?.validation_passed ?? 0) - 1);
    await expectEqualEverywhere();
  });

  test("the comparison fails when the rollups miss a write (trigger disabled), and a rebuild repairs them", async () => {
    await db().execute(sql`ALTER TABLE tasks DISABLE TRIGGER tasks_round_rollups`);
    try {
      await db().execute(sql`UPDATE tasks SET review_state = 'accepted' WHERE run_id = ${runId} AND status = 'accepted' AND id % 3 = 0`);
    } finally {
      await db().execute(sql`ALTER TABLE tasks ENABLE TRIGGER tasks_round_rollups`);
    }
    expect(comparable(await rolled({ review: "accepted" }))).not.toEqual(comparable(await direct({ review: "accepted" })));
    await db().transaction((tx) => rebuildRoundRollups(tx, runId));
    await expectEqualEverywhere();
  });

  test("a run without rollups builds them on its first read; the CLI's statistics use them too", async () => {
    await db().execute(sql`DELETE FROM round_rollup_state WHERE run_id = ${runId}`);
    await db().execute(sql`DELETE FROM round_rollup_cells WHERE run_id = ${runId}`);
    await db().execute(sql`DELETE FROM round_rollup_values WHERE run_id = ${runId}`);
    // Without rollups the trigger leaves the run alone.
    await db().execute(sql`UPDATE tasks SET review_state = 'unreviewed' WHERE run_id = ${runId} AND id % 11 = 0`);
    expect(await roundRollupVersion(db(), runId)).toBeNull();
    const whole = await getRoundDetailByRunId(db(), runId, {});
    expect(await roundRollupVersion(db(), runId)).not.toBeNull();
    expect(comparable(whole)).toEqual(comparable(await direct({})));
    const plain = await getRoundStats(db(), "ru");
    expect(plain?.rounds.map((r) => [r.round, r.candidates, r.accepted, r.median_solution_lines])).toEqual(
      whole.map((r) => [r.round, r.candidates, r.accepted, r.median_solution_lines]),
    );
    await expectEqualEverywhere();
  });
});
