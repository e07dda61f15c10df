import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedBytes, toStoredContent } from "@/lib/ingest/content";
import { execRows } from "../client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "../testing";
import { writeNewBlobs, writeNewReadings } from "./ingest-blobs";

const contents = [
  "plain text\n",
  "tab\there\r\nback\\slash 'quote' \"double\"",
  "ünïcödé ✓ 😀",
  "has a \u2400 marker already",
  "x".repeat(100_000),
].map((t) => toStoredContent(Buffer.from(t)));
const binary = toStoredContent(Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 0]));
const withNul = toStoredContent(Buffer.from("a\0b\n"));

describe.each(BACKENDS)("writeNewBlobs and writeNewReadings on %s", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database.close();
  });

  const stored = () => execRows<{ hash: string; size: number; encoding: "utf8" | "base64"; content: string }>(database.db, sql`SELECT hash, size, encoding, content FROM blobs`);

  test("copies what the database lacks, byte for byte, and skips what it has", async () => {
    const all = [...contents, binary, withNul];
    const first = await database.db.transaction((tx) => writeNewBlobs(tx, all.slice(0, 4)));
    expect(first).toEqual({ rows: 4, bytes: all.slice(0, 4).reduce((n, b) => n + b.size, 0) });
    const second = await database.db.transaction((tx) => writeNewBlobs(tx, all));
    expect(second).toEqual({ rows: 3, bytes: all.slice(4).reduce((n, b) => n + b.size, 0) });
    const rows = await stored();
    expect(rows).toHaveLength(7);
    for (const b of all) {
      const row = rows.find((r) => r.hash === b.hash);
      expect(row).toEqual({ hash: b.hash, size: b.size, encoding: b.encoding, content: b.content });
      if (row) expect(storedBytes(row).length).toBe(b.size);
    }
  });

  test("a blob committed by someone else since it asked: the chunk goes in again without it, nothing lost", async () => {
    await execRows(database.db, sql`DELETE FROM blobs`);
    const one = contents[0]!;
    await database.db.transaction((tx) => writeNewBlobs(tx, [one]));
    const more = toStoredContent(Buffer.from("another file\n"));
    // As if `one` had been committed by another import after the question: the copy fails on it.
    const result = await database.db.transaction(async (tx) => {
      const r = await writeNewBlobs(tx, [more, one, contents[1]!], { askFirst: false });
      // The transaction goes on after the failed copy.
      await execRows(tx, sql`SELECT 1`);
      return r;
    });
    expect(result).toEqual({ rows: 2, bytes: more.size + contents[1]!.size });
    expect((await stored()).map((r) => r.hash).sort()).toEqual([one.hash, more.hash, contents[1]!.hash].sort());
  });

  test("any other error still fails the import", async () => {
    const bad = { ...contents[0]!, hash: "f".repeat(64), encoding: "nonsense" as "utf8" };
    await execRows(database.db, sql`ALTER TABLE blobs ADD CONSTRAINT blobs_encoding_test CHECK (encoding IN ('utf8', 'base64'))`);
    try {
      await expect(database.db.transaction((tx) => writeNewBlobs(tx, [bad]))).rejects.toThrow(/blobs_encoding_test/);
    } finally {
      await execRows(database.db, sql`ALTER TABLE blobs DROP CONSTRAINT blobs_encoding_test`);
    }
    expect((await stored()).some((r) => r.hash === bad.hash)).toBe(false);
  });

  const storedReadings = () => execRows<{ hash: string; reader: string; json: string }>(database.db, sql`SELECT hash, reader, reading::text AS json FROM check_readings ORDER BY hash, reader`);
  const hash = (n: number) => n.toString(16).padStart(64, "0");
  // Readers name a workdir taken from a Dockerfile: any character may follow the version.
  const readings = [
    { hash: hash(1), reader: "pytest@3", json: JSON.stringify({ tests: [{ name: "test_a", paths: ["/app/out.txt"] }], asserts: 2 }) },
    { hash: hash(1), reader: 'shell@4:/srv/"odd", {dir}\\', json: JSON.stringify({ made: ["/srv/x"], text: "tab\there \u0000 ünï 😀" }) },
    { hash: hash(2), reader: "shell@4:/app", json: "[]" },
    { hash: hash(3), reader: "pytest@3", json: JSON.stringify({ tests: [], asserts: 0, note: "a \ud800 lone half" }) },
  ];

  test("copies the readings the database lacks, their JSON text as it came, and skips what it has", async () => {
    expect(await database.db.transaction((tx) => writeNewReadings(tx, readings.slice(0, 2)))).toBe(2);
    // The same reading twice in one call counts once; the two stored already are skipped.
    expect(await database.db.transaction((tx) => writeNewReadings(tx, [...readings, readings[2]!]))).toBe(2);
    expect(await storedReadings()).toEqual([...readings].sort((a, b) => (a.hash + a.reader < b.hash + b.reader ? -1 : 1)));
  });

  test("a reading committed by someone else since it asked: the chunk goes in again without it", async () => {
    await execRows(database.db, sql`DELETE FROM check_readings`);
    await database.db.transaction((tx) => writeNewReadings(tx, [readings[0]!]));
    const result = await database.db.transaction(async (tx) => {
      const n = await writeNewReadings(tx, [readings[1]!, readings[0]!, readings[2]!], { askFirst: false });
      await execRows(tx, sql`SELECT 1`);
      return n;
    });
    expect(result).toBe(2);
    expect((await storedReadings()).map((r) => r.reader).sort()).toEqual([readings[0]!.reader, readings[1]!.reader, readings[2]!.reader].sort());
  });

  test("a reading that is not JSON fails the import", async () => {
    const bad = { hash: hash(9), reader: "pytest@3", json: "{not json" };
    await expect(database.db.transaction((tx) => writeNewReadings(tx, [bad]))).rejects.toThrow(/json/i);
    expect((await storedReadings()).some((r) => r.hash === bad.hash)).toBe(false);
  });
});
