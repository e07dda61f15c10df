import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { types } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { describe, expect, test, vi } from "vitest";
import { candidatesAhead, defaultReaderThreads, MIN_THREADED_CANDIDATES } from "@/lib/ingest/native/read-run";
import { DatabaseLockedError, execRows, isEmbedded, jsonParameter, openDatabase } from "./client";
import { BACKENDS, createTestDatabase } from "./testing";

test("a second process opening the same embedded database gets a clear error", async () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rst-lock-")), "pglite");
  const held = await openDatabase({ pgliteDir: dir });
  try {
    const child = spawnSync(process.execPath, ["bin/rst-curator.js", "migrate"], {
      env: { ...process.env, PGLITE_DIR: dir, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(child.status).toBe(3);
    expect(child.stderr).toContain(`is in use by process ${process.pid}`);
    await expect(openDatabase({ pgliteDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
  } finally {
    await held.close();
  }
  // Released on close: the next opener gets in, and the data survived.
  const again = await openDatabase({ pgliteDir: dir });
  await again.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

test("the embedded database is never opened while next build prerenders (no lock left behind)", async () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rst-build-")), "pglite");
  vi.stubEnv("NEXT_PHASE", "phase-production-build");
  try {
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/not opened while building/);
  } finally {
    vi.unstubAllEnvs();
  }
  expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  expect(fs.existsSync(dir)).toBe(false);
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe.each(BACKENDS)("%s", (backend) => {
  test("says whether it runs in this process, and the importer sizes its readers by it", async () => {
    const database = await createTestDatabase(backend);
    try {
      expect(isEmbedded(database.db)).toBe(backend === "pglite");
      const cores = os.availableParallelism();
      const readers = defaultReaderThreads({ embeddedDatabase: isEmbedded(database.db), candidates: MIN_THREADED_CANDIDATES });
      // PGlite works in the importer's main thread: one reader per core; else two.
      expect(readers).toBe(Math.min(8, backend === "pglite" ? cores : 2 * cores));
      // A small run is read in the importing thread: threads would start slower than it reads.
      expect(defaultReaderThreads({ embeddedDatabase: isEmbedded(database.db), candidates: MIN_THREADED_CANDIDATES - 1 })).toBe(0);
      // PGlite's writes hold the main thread: its readers read four times further ahead.
      const ahead = candidatesAhead({ threads: readers, embeddedDatabase: isEmbedded(database.db) });
      expect(ahead).toBe(readers * (backend === "pglite" ? 256 : 64));
      expect(candidatesAhead({ threads: 0, embeddedDatabase: isEmbedded(database.db) })).toBe(8);
    } finally {
      await database.close();
    }
  });
});

describe.each(BACKENDS)("a json parameter on %s", (backend) => {
  test("arrives whole, every character of it, as a value and as a recordset (PGlite: sent as UTF-8 bytes)", async () => {
    const database = await createTestDatabase(backend);
    try {
      if (backend === "pglite") expect(database.pglite?.serializers[types.JSON]).toBe(jsonParameter);
      const rows = [
        { k: 1, s: "plain ascii" },
        { k: 2, s: "accents éàü, CJK 漢字, emoji 🧪 (a surrogate pair), quote \" and backslash \\" },
        { k: 3, s: "x".repeat(200_000) + "🧪" },
      ];
      const text = JSON.stringify(rows);
      const [whole] = await execRows<{ same: boolean; chars: number }>(
        database.db,
        sql`SELECT ${text}::json::text = ${text} AS same, length(${text}::json::text) AS chars`,
      );
      expect(whole).toEqual({ same: true, chars: [...text].length });
      const back = await execRows<{ k: number; s: string }>(database.db, sql`SELECT k, s FROM json_to_recordset(${text}::json) AS r(k int, s text) ORDER BY k`);
      expect(back).toEqual(rows);
      await expect(execRows(database.db, sql`SELECT ${"{not json"}::json`)).rejects.toThrow(/json/i);
      if (backend === "pglite") {
        // Not a string: serialised as PGlite's own json serializer does, bigints included.
        const [obj] = await execRows<{ j: unknown }>(database.db, sql`SELECT ${{ n: 10n ** 20n, s: "é" }}::json AS j`);
        expect(obj?.j).toEqual({ n: "100000000000000000000", s: "é" });
      }
    } finally {
      await database.close();
    }
  });
});

describe.each(BACKENDS)("execRows on %s", (backend) => {
  test("a prepared statement answers as an unprepared one, types included, and is prepared on PostgreSQL", async () => {
    const database = await createTestDatabase(backend);
    try {
      const query = (n: number) =>
        sql`SELECT ${n}::int AS n, now() AS at, json_build_object('a', ${n}::int, 'b', 'x') AS j, ARRAY[${n}::int, 2] AS arr, ${`{${n},3}`}::int[] AS lit`;
      const plain = await execRows<Record<string, unknown>>(database.db, query(7));
      for (let i = 0; i < 3; i++) {
        const prepared = await execRows<Record<string, unknown>>(database.db, query(7), { prepared: true });
        expect({ ...prepared[0], at: null }).toEqual({ ...plain[0], at: null });
        expect(typeof prepared[0]?.at).toBe(typeof plain[0]?.at);
      }
      if (backend === "postgres") {
        // A named statement stays on the connection that prepared it; which one that was is the
        // pool's choice, so ask all of them.
        const named = await execRows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%json_build_object(''a''%'`,
          { prepared: true },
        );
        const answers = await Promise.all(Array.from({ length: 10 }, () => execRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%json_build_object(''a''%'`)));
        expect(Math.max(named[0]?.n ?? 0, ...answers.map((a) => a[0]?.n ?? 0))).toBeGreaterThan(0);
      }
    } finally {
      await database.close();
    }
  });
});
