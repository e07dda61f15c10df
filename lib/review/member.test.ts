// The member data the queue route answers (lib/review/member) is what lib/data/queues
// loadQueueTask answers, for every member of a run, computed or read from the step cache; the
// step's key follows the contents of both tasks; and the role is checked.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { preparedTextCount, useDatabase } from "@/db/client";
import { createQueue } from "@/db/queries/queues";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { AuthError, CLI_ACTOR, type Actor } from "@/lib/auth/actor";
import { STEP_PYTEST_READER, STEP_SHELL_READER } from "@/lib/checks/readings";
import { loadQueueTask } from "@/lib/data/queues";
import { ingestPath } from "@/lib/ingest";
import { writeFixtureRun } from "@/lib/ingest/fixtures";
import { parseTaskFilter } from "@/lib/tasks/filter";
import { recordReview } from "@/db/queries/reviews";
import { queueItems, tasks } from "@/db/schema";
import { eq, sql } from "drizzle-orm";
import { loadQueueMember, stepPaths } from "./member";
import { clearStepCache, stepKey } from "./step-cache";

const READER: Actor = { kind: "user", id: "v", label: "viewer", role: "viewer", userId: null };
const TOKEN: Actor = { kind: "token", id: "token:1", label: 'token "t"', role: "reviewer", userId: null };

describe.each(BACKENDS)("queue member data on %s", (backend) => {
  let database: TestDatabase;
  let dir = "";

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dir = writeFixtureRun("qm");
    await ingestPath(database.db, dir);
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("every member's data equals loadQueueTask's, computed and then from the cache", async () => {
    const parsed = parseTaskFilter(new URLSearchParams("run=qm"));
    if (!parsed.ok) throw new Error("filter");
    const queue = await createQueue(database.db, { name: "all", filter: parsed.filter }, CLI_ACTOR);
    const members = await database.db.select({ taskId: queueItems.taskId }).from(queueItems).where(eq(queueItems.queueId, queue.id));
    expect(members.length).toBeGreaterThan(3);
    // A decision by a token (its label comes from the audit log) on one member.
    const first = members[0]?.taskId ?? 0;
    const [{ version } = { version: 0 }] = await database.db.select({ version: tasks.version }).from(tasks).where(eq(tasks.id, first));
    expect((await recordReview(database.db, { taskId: first, decision: "accept", reason: null, note: "n", baseVersion: version }, TOKEN)).ok).toBe(true);
    clearStepCache();
    const prepared = preparedTextCount();
    let steps = 0;
    const seen = { evals: 0, children: 0, parent: 0, created: 0, review: 0 };
    for (const pass of ["computed", "cached"]) {
      for (const { taskId } of members) {
        const expected = await loadQueueTask(READER, queue.id, taskId);
        const got = await loadQueueMember(READER, queue.id, taskId);
        expect(got, `${pass} ${taskId}`).toEqual(expected);
        if (got?.diff) steps++;
        seen.evals += got?.task.evals.length ? 1 : 0;
        seen.children += got?.task.children.length ? 1 : 0;
        seen.parent += got?.task.parent ? 1 : 0;
        seen.created += got?.task.created_at ? 1 : 0;
        seen.review += got?.task.last_review?.by === 'token "t"' ? 1 : 0;
      }
    }
    expect(steps).toBeGreaterThan(2);
    if (backend === "postgres") {
      // The member's prepared statements (its task, the step's texts and readings) do not vary
      // with their values: one text each, however many members (each text stays on every connection).
      expect(preparedTextCount() - prepared).toBe(3);
    }
    // The fields compared were not all empty.
    for (const [field, n] of Object.entries(seen)) expect(n, field).toBeGreaterThan(0);
    expect(await loadQueueMember(READER, queue.id, 999_999)).toBeNull();
    expect(await loadQueueMember(READER, 999_999, members[0]?.taskId ?? 0)).toBeNull();
  });

  test("the step reads what the import stored of each file; without it the files are parsed alike", async () => {
    const parsed = parseTaskFilter(new URLSearchParams("run=qm"));
    if (!parsed.ok) throw new Error("filter");
    const queue = await createQueue(database.db, { name: "readings", filter: parsed.filter }, CLI_ACTOR);
    const members = await database.db.select({ taskId: queueItems.taskId }).from(queueItems).where(eq(queueItems.queueId, queue.id));
    const both = async () => {
      clearStepCache();
      const out = [];
      for (const { taskId } of members) out.push({ member: await loadQueueMember(READER, queue.id, taskId), task: await loadQueueTask(READER, queue.id, taskId) });
      return out;
    };
    const stored = await both();
    expect(stored.filter((m) => m.member?.diff).length).toBeGreaterThan(2);
    // What is stored is what the step shows, on both paths…
    await database.db.execute(sql`UPDATE check_readings SET reading = json_build_object('names', json_build_array('test_' || hash)) WHERE reader = ${STEP_PYTEST_READER}`);
    for (const m of await both()) {
      if (!m.member?.diff) continue;
      expect(m.member.diff.summary.tests).toEqual([expect.stringMatching(/^test_[0-9a-f]+$/)]);
      expect(m.task?.diff?.summary).toEqual(m.member.diff.summary);
    }
    await database.db.execute(
      // Each script as one statement, from its first character to its last.
      sql`UPDATE check_readings r SET reading = json_build_object('spans', json_build_array(json_build_array(0, length(b.content))))
          FROM blobs b WHERE b.hash = r.hash AND r.reader = ${STEP_SHELL_READER}`,
    );
    for (const m of await both()) {
      if (!m.member?.diff) continue;
      expect(m.member.diff.summary.commands).toEqual([expect.stringMatching(/^#!\/bin\/bash\nset -e\nmkdir -p \/app\necho done/)]);
      expect(m.task?.diff?.summary).toEqual(m.member.diff.summary);
    }
    // …and without stored readings the files are parsed, to the same answers.
    await database.db.execute(sql`DELETE FROM check_readings WHERE reader LIKE 'steps-%'`);
    expect(await both()).toEqual(stored);
  });

  test("a reader is required", async () => {
    await expect(loadQueueMember(null, 1, 1)).rejects.toBeInstanceOf(AuthError);
  });
});

describe("step keys and paths", () => {
  const a = [
    { path: "solution/solve.sh", hash: "h1", size: 1 },
    { path: "environment/Dockerfile", hash: "h2", size: 1 },
    { path: "tests/test_outputs.py", hash: "h3", size: 1 },
  ];
  test("the key names both file sets, in any order, and nothing else", () => {
    const b = [...a.slice(1), { path: "solution/solve.sh", hash: "h9", size: 1 }];
    expect(stepKey(a, b)).toBe(stepKey([...a].reverse(), [...b].reverse()));
    expect(stepKey(a, b)).not.toBe(stepKey(b, a));
    expect(stepKey(a, b)).not.toBe(stepKey(a, a));
    // A file moving from one side's list to the other's is another pair.
    expect(stepKey(a.slice(0, 2), a)).not.toBe(stepKey(a, a.slice(0, 2)));
  });
  test("the texts fetched: changed files and those the summary reads, never an unchanged other file", () => {
    const b = [a[0]!, { path: "environment/Dockerfile", hash: "h4", size: 1 }, a[2]!, { path: "data/new.csv", hash: "h5", size: 1 }];
    expect([...stepPaths(a, b)].sort()).toEqual(["data/new.csv", "environment/Dockerfile", "solution/solve.sh", "tests/test_outputs.py"]);
    expect([...stepPaths(a, a)].sort()).toEqual(["solution/solve.sh", "tests/test_outputs.py"]);
  });
});
