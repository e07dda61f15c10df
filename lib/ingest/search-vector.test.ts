import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copyFrom, execRows } from "@/db/client";
import { BinaryCopy } from "@/db/copy-binary";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { searchWords } from "@/lib/tasks/search";
import { pairsMissing, phrasePairs, SEARCH_VECTOR_PROBE, searchIndex, searchIndexOfText, searchVector, wordHash } from "./search-vector";

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

test("two words with the same hash stay two lexemes", () => {
  // Lexemes are found by their words' 32-bit hashes: a collision is found among ~10^5 words.
  const byHash = new Map<number, string>();
  let pair: [string, string] | null = null;
  for (let i = 0; pair === null; i++) {
    const word = `w${i.toString(36)}`;
    const other = byHash.get(wordHash(word));
    if (other !== undefined) pair = [other, word];
    else byHash.set(wordHash(word), word);
  }
  const [a, b] = pair;
  expect(wordHash(a)).toBe(wordHash(b));
  expect(searchVector(`${a} ${b} ${a.toUpperCase()} x ${b}`)).toBe(`'${a}':1,3 '${b}':2,5 'x':4`);
  const index = searchIndexOfText(`${b} ${a}-${b}`);
  expect(index?.vector).toEqual(searchIndex(`${b} ${a} ${b}`)?.vector);
  expect(new TextDecoder().decode(index?.vector)).toContain(`${a}\0`);
});

test("a text with thousands of distinct words: each lexeme with all its positions", () => {
  // Past the size TextLexemes' lexeme table starts at, so that it grows (more than once).
  const words = Array.from({ length: 5000 }, (_, i) => `Word${(i * 7919) % 3000}`);
  const positions = new Map<string, number[]>();
  words.forEach((w, i) => positions.set(w.toLowerCase(), [...(positions.get(w.toLowerCase()) ?? []), i + 1]));
  const expected = [...positions].map(([w, p]) => `'${w}':${p.join(",")}`).join(" ");
  expect(searchVector(words.join(" "))).toBe(expected);
  expect(searchIndexOfText(words.join("\n"))).toEqual(searchIndex(words.join(" ")));
});

/** The lexemes of a binary vector (searchIndex), in the order it sends them. */
function lexemesOf(vector: Uint8Array): string[] {
  const view = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  const out: string[] = [];
  let at = 4;
  for (let i = view.readInt32BE(0); i > 0; i--) {
    const end = view.indexOf(0, at);
    out.push(view.toString("latin1", at, end));
    at = end + 1;
    at += 2 + 2 * view.readUInt16BE(at);
  }
  return out;
}

test("the binary vector sends its lexemes in PostgreSQL's order, long words sharing their start too", () => {
  // Words of up to 12 characters from a small alphabet share their first 7 often; digits sort
  // before letters, and a word before the longer ones it starts.
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const words = Array.from({ length: 3000 }, () => {
    const length = 1 + Math.floor(next() * 12);
    return Array.from({ length }, () => "ab09Z"[Math.floor(next() * 5)]).join("");
  });
  const lexemes = lexemesOf(searchIndexOfText(words.join(" "))!.vector);
  const expected = [...new Set(words.map((w) => w.toLowerCase()))].sort();
  expect(lexemes).toEqual(expected);
  expect(lexemes.length).toBeGreaterThan(1000);
});

test("searchIndexOfText is searchIndex of the text's searchWords, for any text", () => {
  let seed = 99;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const alphabets = ["abcxyzE", "0123456789", "eE", "_ ", "ABZ", "0123456789eE", " \t\n", "-./:'\"$(){}[]|&;<>#=*", "\u00e9\u00dc\u0663", "\u{1F600}", "\u2192\u2014\u201c\u201d\u00ad\u00a0", "\u00b2\u00bd\u{1D400}\uff21\ue000"];
  const texts = [
    "",
    "   ",
    "__",
    "Set -euo pipefail; sqlite3 /app/db.sqlite < out_2.sql",
    "x".repeat(200),
    "x".repeat(201),
    "1e5x y 12E3 e2e",
    "w ".repeat(16_383),
    "w ".repeat(16_384),
    "a ".repeat(300),
  ];
  for (let i = 0; i < 4000; i++) {
    // Mostly ASCII, as tasks are; one in ten with a non-ASCII letter, digit or symbol, and one in
    // ten with non-ASCII separators only (`→`, `—`, quotation marks: read in the one pass too).
    const pool = i % 10 === 0 ? alphabets : i % 10 === 5 ? [...alphabets.slice(0, 8), alphabets[10] ?? ""] : alphabets.slice(0, 8);
    let t = "";
    const len = 1 + Math.floor(next() * 60);
    for (let j = 0; j < len; j++) {
      const a = pool[Math.floor(next() * pool.length)] ?? " ";
      const chars = [...a];
      t += chars[Math.floor(next() * chars.length)] ?? " ";
    }
    texts.push(t);
  }
  let covered = 0;
  for (const t of texts) {
    const expected = searchIndex(searchWords(t));
    expect(searchIndexOfText(t), JSON.stringify(t)).toEqual(expected);
    if (expected) covered++;
  }
  expect(covered).toBeGreaterThan(3000);
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

describe.each(BACKENDS)("searchIndex's binary vector, copied in, equals to_tsvector('simple', …) on %s", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database.close();
  });

  test("for every text it covers, lexemes, positions and order alike", async () => {
    const texts = corpus(3000);
    const differing = await database.db.transaction(async (tx) => {
      await tx.execute(sql`CREATE TEMP TABLE vectors (i int4, v tsvector) ON COMMIT DROP`);
      const copy = new BinaryCopy(2);
      texts.forEach((t, i) => {
        const index = searchIndex(t);
        if (index) copy.row([{ int4: i }, { raw: index.vector }]);
      });
      expect(copy.rows).toBeGreaterThan(1500);
      await copyFrom(tx, "COPY vectors (i, v) FROM STDIN (FORMAT binary)", copy.end());
      // Compared as vectors and as their text forms.
      return execRows<{ t: string; v: string; pg: string }>(
        tx,
        sql`SELECT r.t, v.v::text AS v, to_tsvector('simple', r.t)::text AS pg
            FROM vectors v JOIN json_to_recordset(${JSON.stringify(texts.map((t, i) => ({ i, t })))}::json) AS r(i int4, t text) USING (i)
            WHERE v.v <> to_tsvector('simple', r.t) OR v.v::text <> to_tsvector('simple', r.t)::text`,
      );
    });
    expect(differing).toEqual([]);
  });
});

describe("word pairs", () => {
  test("a task lists the pair of every two adjacent words, as a phrase search hashes them", () => {
    const words = searchWords("Set -euo pipefail; sqlite3 /app/db.sqlite < out_2.sql\nset EUO");
    const index = searchIndex(words);
    const tokens = words.toLowerCase().split(/[ _]+/);
    const expected = new Set(tokens.slice(1).flatMap((w, i) => phrasePairs(`${tokens[i]} ${w}`) ?? []));
    expect(new Set(index?.pairs)).toEqual(expected);
    expect(index?.pairs.length).toBe(tokens.length - 2); // "set euo" comes twice, listed once
    expect([...(index?.pairs ?? [])]).toEqual([...(index?.pairs ?? [])].sort((a, b) => a - b));
    expect(index?.pairs).not.toContain(0);
    // A phrase of three words is its two pairs; one word, or words PostgreSQL reads otherwise, none.
    expect(phrasePairs("set euo pipefail")).toEqual([...(phrasePairs("set euo") ?? []), ...(phrasePairs("euo pipefail") ?? [])]);
    expect(phrasePairs("sqlite3")).toBeNull();
    expect(phrasePairs("1e5x y")).toBeNull();
    expect(phrasePairs("caf\u00e9 au lait")).toBeNull();
    expect(phrasePairs("out_2")).toEqual(phrasePairs("OUT 2"));
  });

  test("what a parent lacks", () => {
    expect([...pairsMissing(Int32Array.from([-5, 1, 2, 7, 9]), Int32Array.from([-9, 1, 7, 8]))]).toEqual([-5, 2, 9]);
    expect([...pairsMissing(Int32Array.from([1, 2]), new Int32Array(0))]).toEqual([1, 2]);
    expect([...pairsMissing(new Int32Array(0), Int32Array.from([1]))]).toEqual([]);
  });
});

describe.each(BACKENDS)("word pairs hold every phrase PostgreSQL matches on %s", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database.close();
  });

  test("for every text it covers: a phrase the vector matches has all its pairs listed", async () => {
    // Phrases of two and three words of each text's own vocabulary, adjacent or not.
    const cases: { t: string; phrase: string; listed: boolean }[] = [];
    let seed = 7;
    const pick = <T>(xs: T[]): T => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return xs[seed % xs.length] as T;
    };
    for (const t of corpus(1500)) {
      const index = searchIndex(t);
      const tokens = t.toLowerCase().split(/[ _]+/).filter((w) => w !== "");
      if (!index || tokens.length < 2) continue;
      const listed = new Set(index.pairs);
      for (let k = 0; k < 3; k++) {
        const at = tokens.indexOf(pick(tokens));
        const phrase = k === 0 ? `${pick(tokens)} ${pick(tokens)}` : tokens.slice(at, at + k + 1).join(" ");
        const pairs = phrasePairs(phrase);
        if (pairs) cases.push({ t, phrase, listed: pairs.every((p) => listed.has(p)) });
      }
    }
    expect(cases.filter((c) => !c.listed).length).toBeGreaterThan(100);
    const missed = await execRows<{ phrase: string }>(
      database.db,
      sql`SELECT phrase FROM json_to_recordset(${JSON.stringify(cases)}::json) AS r(t text, phrase text, listed boolean)
          WHERE NOT listed AND to_tsvector('simple', t) @@ phraseto_tsquery('simple', phrase)`,
    );
    expect(missed).toEqual([]);
    const matched = await execRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM json_to_recordset(${JSON.stringify(cases)}::json) AS r(t text, phrase text, listed boolean)
          WHERE to_tsvector('simple', t) @@ phraseto_tsquery('simple', phrase)`,
    );
    expect(matched[0]?.n).toBeGreaterThan(500);
  });
});
