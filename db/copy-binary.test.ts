import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copyFrom, execRows } from "./client";
import { BinaryCopy } from "./copy-binary";
import { BACKENDS, createTestDatabase, type TestDatabase } from "./testing";

test("a row must have as many fields as the stream; an int4 must be one", () => {
  const copy = new BinaryCopy(2);
  expect(() => copy.row([{ int4: 1 }])).toThrow("2 fields, not 1");
  expect(() => copy.row([{ int4: 2 ** 31 }, null])).toThrow("not an int4");
  expect(() => copy.row([{ int4: 1.5 }, null])).toThrow("not an int4");
});

describe.each(BACKENDS)("binary COPY on %s", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database.close();
  });

  test("every field type arrives as it was sent, in a transaction, over many rows", async () => {
    const texts = ["", "plain", "tab\there\nnew line\\back\r", "ünïcödé ✓ 😀", "\u2400 NUL marker", "x".repeat(70_000)];
    const rows = await database.db.transaction(async (tx) => {
      await tx.execute(sql`CREATE TEMP TABLE copied (id int4 PRIMARY KEY, t text, v tsvector, a int4[], f float8, b boolean) ON COMMIT DROP`);
      // Small on purpose: the builder grows its buffer many times.
      const copy = new BinaryCopy(6, 16);
      for (let i = 0; i < 600; i++) {
        const vector = Buffer.from([0, 0, 0, 1, 0x61, 0x62, 0, 0, 2, 0, 1, 0, 7]); // 'ab':1,7
        copy.row([{ int4: i - 300 }, i % 7 === 6 ? null : { text: texts[i % 6] ?? "" }, i % 2 ? { raw: vector } : null, { int4s: i % 3 ? [i, -i, 2 ** 31 - 1] : [] }, i % 5 ? { float8: i / 8 - 7.3 } : null, { bool: i % 4 === 1 }]);
      }
      expect(copy.rows).toBe(600);
      await copyFrom(tx, "COPY copied (id, t, v, a, f, b) FROM STDIN (FORMAT binary)", copy.end());
      return execRows<{ id: number; t: string | null; v: string | null; a: string; f: number | null; b: boolean }>(
        tx,
        sql`SELECT id, t, v::text AS v, a::text AS a, f, b FROM copied ORDER BY id`,
      );
    });
    expect(rows).toHaveLength(600);
    rows.forEach((r, k) => {
      expect(r.id).toBe(k - 300);
      expect(r.t).toBe(k % 7 === 6 ? null : texts[k % 6]);
      expect(r.v).toBe(k % 2 ? "'ab':1,7" : null);
      expect(r.a).toBe(k % 3 ? `{${k},${-k},2147483647}` : "{}");
      expect(r.f).toBe(k % 5 ? k / 8 - 7.3 : null);
      expect(r.b).toBe(k % 4 === 1);
    });
  });

  test("the server's error reaches the caller, and the transaction rolls back", async () => {
    await database.db.execute(sql`CREATE TABLE copy_target (id int4 PRIMARY KEY)`);
    const copy = new BinaryCopy(1);
    for (const id of [1, 2, 2]) copy.row([{ int4: id }]);
    const data = copy.end();
    await expect(
      database.db.transaction(async (tx) => {
        await copyFrom(tx, "COPY copy_target (id) FROM STDIN (FORMAT binary)", data);
      }),
    ).rejects.toThrow(/duplicate key/);
    await expect(
      database.db.transaction(async (tx) => {
        await copyFrom(tx, "COPY no_such_table (id) FROM STDIN (FORMAT binary)", data);
      }),
    ).rejects.toThrow(/no_such_table/);
    const [left] = await execRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM copy_target`);
    expect(left?.n).toBe(0);
    // The connection is usable afterwards.
    const ok = new BinaryCopy(1);
    ok.row([{ int4: 5 }]);
    await database.db.transaction((tx) => copyFrom(tx, "COPY copy_target (id) FROM STDIN (FORMAT binary)", ok.end()));
    const [after] = await execRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM copy_target`);
    expect(after?.n).toBe(1);
  });

  test("only FROM STDIN", async () => {
    await expect(copyFrom(database.db, "COPY copy_target FROM '/etc/passwd'", new Uint8Array())).rejects.toThrow("FROM STDIN");
  });
});
