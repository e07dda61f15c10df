// Harbor task directories (FORMATS.md §1) imported as a run of roots, measured like any task; their
// trials follow as Harbor results.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runs, taskFiles, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { IngestError } from "./errors";
import { writeTask, writeTrial } from "./fixtures";
import { writeTerminalBench1Task } from "./tb1-fixtures";
import { detectFormat, ingestPath } from "./index";

describe.each(BACKENDS)("Harbor task directories on %s", (backend) => {
  let database: TestDatabase;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "rst-taskdirs-"));
  const folder = path.join(root, "tb2-sample");

  const rowsOf = (run: string) =>
    database.db
      .select({ extId: tasks.extId, round: tasks.round, parentId: tasks.parentId, depth: tasks.depth, status: tasks.status, solutionLines: tasks.solutionLines, verifierTests: tasks.verifierTests, category: tasks.category })
      .from(tasks)
      .innerJoin(runs, eq(runs.id, tasks.runId))
      .where(eq(runs.name, run))
      .orderBy(asc(tasks.extId));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    for (const [id, round] of [["hello-world", 0], ["fix-git", 3], ["sqlite-report", 7]] as const) writeTask(folder, { id, parent: null, round });
    // Harbor task folders are tasks/<id>/ in the fixture writer: lift them to the top.
    for (const id of fs.readdirSync(path.join(folder, "tasks"))) fs.renameSync(path.join(folder, "tasks", id), path.join(folder, id));
    fs.rmdirSync(path.join(folder, "tasks"));
    fs.writeFileSync(path.join(folder, "README.md"), "# a task set\n");
    fs.mkdirSync(path.join(folder, "notes"));
    fs.mkdirSync(path.join(folder, ".git"));
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test("a folder of tasks becomes a run of roots, measured; again it adds nothing", async () => {
    expect(await detectFormat(folder)).toBe("tasks");
    const s = await ingestPath(database.db, folder);
    expect(s).toMatchObject({ format: "tasks", run: "tb2-sample", tasksNew: 3, trialsNew: 0, files: 18, unchanged: false });
    expect(s.warnings.map((w) => `${w.file}: ${w.message}`)).toEqual(["tb2-sample: not task directories (no instruction.md, task.toml or task.yaml), not imported: README.md, notes"]);
    const rows = await rowsOf("tb2-sample");
    expect(rows.map((r) => [r.extId, r.round, r.parentId, r.depth, r.status, r.category])).toEqual([
      ["fix-git", null, null, 0, "accepted", "file-operations"],
      ["hello-world", null, null, 0, "accepted", "file-operations"],
      ["sqlite-report", null, null, 0, "accepted", "file-operations"],
    ]);
    for (const r of rows) {
      expect(r.solutionLines).toBe(4);
      expect(r.verifierTests).toBe(1);
    }
    expect(await ingestPath(database.db, folder)).toMatchObject({ unchanged: true, tasksUnchanged: 3 });
  });

  test("one task joins the run --run names; its trials follow as Harbor results", async () => {
    const one = path.join(root, "extra");
    writeTask(one, { id: "late-task", parent: null, round: 0 });
    const taskDir = path.join(one, "tasks", "late-task");
    await expect(ingestPath(database.db, taskDir)).rejects.toThrow(/a single task needs --run NAME/);
    expect(await ingestPath(database.db, taskDir, { runName: "tb2-sample" })).toMatchObject({ run: "tb2-sample", tasksNew: 1 });
    expect((await rowsOf("tb2-sample")).map((r) => r.extId)).toEqual(["fix-git", "hello-world", "late-task", "sqlite-report"]);

    writeTrial(one, "late-task", "late-task__oracle", "oracle", 1);
    expect(await ingestPath(database.db, path.join(one, "trials"), { runName: "tb2-sample" })).toMatchObject({ format: "harbor", trialsNew: 1 });
  });

  test("a bad task names its file and line, and nothing is written", async () => {
    const bad = path.join(root, "broken-set");
    writeTask(bad, { id: "good", parent: null, round: 0 });
    writeTask(bad, { id: "bad", parent: null, round: 0 });
    for (const id of ["good", "bad"]) fs.renameSync(path.join(bad, "tasks", id), path.join(bad, id));
    fs.rmdirSync(path.join(bad, "tasks"));
    fs.writeFileSync(path.join(bad, "bad/task.toml"), 'schema_version = "1.1"\n[task\n');
    const err = await ingestPath(database.db, bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect((err as IngestError).issues).toEqual([{ file: "broken-set/bad/task.toml", line: 2, message: expect.stringMatching(/^invalid TOML: /) }]);
    expect(await database.db.select().from(runs).where(eq(runs.name, "broken-set"))).toEqual([]);
  });

  test("Terminal-Bench 1 tasks import mapped onto the Harbor layout, measured; a bad task.yaml names its line", async () => {
    const set = path.join(root, "tb1-set");
    writeTerminalBench1Task(set, { id: "hello-world" });
    writeTerminalBench1Task(set, { id: "keystrokes", solutionYaml: true });
    expect(await detectFormat(set)).toBe("tasks");
    expect(await ingestPath(database.db, set)).toMatchObject({ format: "tasks", run: "tb1-set", tasksNew: 2 });
    const rows = await database.db
      .select({ id: tasks.id, extId: tasks.extId, solutionLines: tasks.solutionLines, commands: tasks.commands, verifierTests: tasks.verifierTests, instructionWords: tasks.instructionWords })
      .from(tasks)
      .innerJoin(runs, eq(runs.id, tasks.runId))
      .where(eq(runs.name, "tb1-set"))
      .orderBy(asc(tasks.extId));
    expect(rows.map((r) => [r.extId, r.commands, r.verifierTests])).toEqual([
      ["hello-world", 3, 2],
      ["keystrokes", 3, 2],
    ]);
    for (const r of rows) expect(r.instructionWords).toBeGreaterThan(0);
    const paths = (await database.db.select({ path: taskFiles.path }).from(taskFiles).where(eq(taskFiles.taskId, rows[1]?.id ?? -1))).map((f) => f.path).sort();
    expect(paths).toEqual(["environment/Dockerfile", "environment/docker-compose.yaml", "instruction.md", "solution/solution.yaml", "task.toml", "tests/test.sh", "tests/test_outputs.py"]);

    const bad = path.join(root, "tb1-bad");
    const task = writeTerminalBench1Task(bad, { id: "broken" });
    fs.writeFileSync(path.join(task, "task.yaml"), "instruction: |\n  Do it.\ndifficulty: [unclosed\n");
    const err = (await ingestPath(database.db, bad).catch((e: unknown) => e)) as IngestError;
    expect(err).toBeInstanceOf(IngestError);
    expect(err.issues).toEqual([{ file: "tb1-bad/broken/task.yaml", line: expect.any(Number), message: expect.stringMatching(/YAML/) }]);
    expect(await database.db.select().from(runs).where(eq(runs.name, "tb1-bad"))).toEqual([]);
  });
});
