import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { execRows } from "@/db/client";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { searchWords } from "@/lib/tasks/search";
import { SEARCH_VECTOR_PROBE, searchVector } from "./search-vector";

/** Texts shaped like the ones that trip a tokenizer: digit/letter mixes, `e` between digits,
 * underscores, case, repeats past PostgreSQL's 255 positions per lexeme. Deterministic. */
function corpus(n: number): string[] {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const alphabets = ["abcxyzE", "0123456789", "eE", "_ ", "ABZ", "0123456789eE", " ", "-./:é"];
  const out = [SEARCH_VECTOR_PROBE, "", "   ", "a ".repeat(300), "test_outputs.py /app/out-2.txt", "Ünïcode wörds"];
  for (let i = 0; i < n; i++) {
    let s = "";
    const len = 1 + Math.floor(next() * 40);
    for (let j = 0; j < len; j++) {
      const a = alphabets[Math.floor(next() * alphabets.length)] ?? " ";
      s += a[Math.floor(next() * a.length)] ?? " ";
    }
    out.push(s);
  }
  return out.map(searchWords);
}

test("hands over what it does not cover", () => {
  expect(searchVector("1e5x")).toBeNull();
  expect(searchVector("caf\u00e9")).toBeNull();
  expect(searchVector("a-b")).toBeNull();
  expect(searchVector("x".repeat(201))).toBeNull();
  expect(searchVector("w ".repeat(16_384))).toBeNull();
  expect(searchVector("Out_2 out")).toBe("'out':1,3 '2':2");
});

describe.each(BACKENDS)("searchVector equals to_tsvector('simple', …) on %s", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database.close();
  });

  test("for every text it covers", async () => {
    const rows = corpus(3000)
      .map((t) => ({ t, v: searchVector(t) }))
      .filter((r): r is { t: string; v: string } => r.v !== null);
    expect(rows.length).toBeGreaterThan(1500);
    const differing = await execRows<{ t: string; v: string; pg: string }>(
      database.db,
      sql`SELECT t, v, to_tsvector('simple', t)::text AS pg FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(t text, v text)
          WHERE to_tsvector('simple', t) <> v::tsvector`,
    );
    expect(differing).toEqual([]);
  });
});
