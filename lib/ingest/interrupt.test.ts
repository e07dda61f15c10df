// A real interruption: the CLI imports a generated run in a child process, which is killed with
// SIGKILL part-way through. Nothing of the run may be visible afterwards, an embedded database
// must open again (its lock names a dead process), and the next import must be complete.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows, openDatabase, type Database } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "@/db/testing";
import { env } from "@/lib/env";
import { generateRun, type GenerateSummary } from "@/lib/generate";
import { ingestPath } from "./index";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "bin/rst-curator.js");
const PROGRESS = /ingest: (\d+)\/(\d+) \((\d+)%\)/;

/** Rows per table, the import's whole footprint. */
async function counts(database: Database): Promise<Record<string, number>> {
  const [row] = await execRows<Record<string, number>>(
    database.db,
    sql`SELECT (SELECT count(*)::int FROM runs) AS runs, (SELECT count(*)::int FROM tasks) AS tasks,
        (SELECT count(*)::int FROM task_files) AS task_files, (SELECT count(*)::int FROM evals) AS evals,
        (SELECT count(*)::int FROM trials) AS trials, (SELECT count(*)::int FROM trial_tests) AS trial_tests,
        (SELECT count(*)::int FROM trial_logs) AS trial_logs, (SELECT count(*)::int FROM blobs) AS blobs,
        (SELECT count(*)::int FROM tasks WHERE root_id IS NULL) AS unplaced`,
  );
  if (!row) throw new Error("no counts");
  return row;
}

async function importStatuses(database: Database): Promise<string[]> {
  const rows = await execRows<{ status: string }>(database.db, sql`SELECT status FROM imports ORDER BY id`);
  return rows.map((r) => r.status);
}

interface Child {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs `rst-curator ingest` the way a user does, with only the database settings in its
 * environment. With `killAtPercent`, the child is killed with SIGKILL as soon as its progress
 * output reaches that share of the candidates (no timers: the output says when).
 */
function runCli(runDir: string, dbEnv: Record<string, string>, killAtPercent?: number): Promise<Child & { killedAt: number | null }> {
  return new Promise((resolve, reject) => {
    // Only these variables: the child must not see the test run's own configuration.
    const childEnv = dbEnv as NodeJS.ProcessEnv;
    const child = spawn(process.execPath, [CLI, "ingest", runDir, "--json"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let killedAt: number | null = null;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (killAtPercent === undefined || killedAt !== null) return;
      for (const line of stderr.split("\n")) {
        const m = PROGRESS.exec(line);
        if (m && Number(m[3]) >= killAtPercent && Number(m[1]) < Number(m[2])) {
          killedAt = Number(m[1]);
          child.kill("SIGKILL");
          break;
        }
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ stdout, stderr, code, signal, killedAt }));
  });
}

describe("an import killed part-way", () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "rst-interrupt-"));
  const runDir = path.join(base, "run");
  let run: GenerateSummary;
  let clean: Record<string, number>;

  beforeAll(async () => {
    run = await generateRun({ out: runDir, tasks: 300, seed: 11, name: "interrupted" });
    // The reference: the same run imported without interruption.
    const reference = await createTestDatabase("pglite");
    try {
      await ingestPath(reference.db, runDir);
      clean = await counts(reference);
    } finally {
      await reference.close();
    }
    expect(clean).toMatchObject({ runs: 1, tasks: run.accepted + run.rejected, trials: run.trials, unplaced: 0 });
  }, 0);

  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** Kill, check that nothing is visible, import again, check that all of it is. */
  async function killAndResume(dbEnv: Record<string, string>, open: () => Promise<Database>, afterKill?: () => void): Promise<void> {
    const killed = await runCli(runDir, dbEnv, 70);
    expect(killed.signal, `the import finished before it could be killed:\n${killed.stderr}`).toBe("SIGKILL");
    expect(killed.killedAt).toBeGreaterThan(0);
    afterKill?.();

    let database = await open();
    try {
      expect(await counts(database)).toEqual({ runs: 0, tasks: 0, task_files: 0, evals: 0, trials: 0, trial_tests: 0, trial_logs: 0, blobs: 0, unplaced: 0 });
      // The import record is written outside the transaction: it says "running" until the next start.
      expect(await importStatuses(database)).toEqual(["running"]);
    } finally {
      await database.close();
    }

    const resumed = await runCli(runDir, dbEnv);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ run: "interrupted", tasksNew: clean.tasks, trialsNew: clean.trials, unchanged: false });

    database = await open();
    try {
      expect(await counts(database)).toEqual(clean);
      expect(await importStatuses(database)).toEqual(["failed", "done"]);
    } finally {
      await database.close();
    }
  }

  test("on PGlite: nothing is visible, the directory opens again, the next import is complete", async () => {
    const dir = path.join(base, "pglite");
    await killAndResume(
      { PGLITE_DIR: dir },
      () => openDatabase({ pgliteDir: dir }),
      // The killed process left its lock file behind, naming a process that is gone.
      () => expect(fs.existsSync(`${dir}.lock`)).toBe(true),
    );
  }, 0);

  test.skipIf(!env.testDatabaseUrl)("on PostgreSQL: nothing is visible, the next import is complete", async () => {
    let database: TestDatabase | undefined;
    try {
      database = await createTestDatabase("postgres");
      const [row] = await execRows<{ name: string }>(database.db, sql`SELECT current_database() AS name`);
      const url = new URL(env.testDatabaseUrl ?? "");
      url.pathname = `/${row?.name ?? ""}`;
      await killAndResume({ DATABASE_URL: url.toString() }, () => openDatabase({ url: url.toString(), migrate: false }));
    } finally {
      await database?.close();
    }
  }, 0);
});
