// JSONL interchange import (FORMATS.md §6): our export read back gives the same tasks, byte for
// byte; bad lines are named by file and line and nothing is written.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { runs, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { canonicalFilter } from "@/lib/api/bulk-schemas";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { exportFrom } from "@/lib/data/export";
import { IngestError, IssueList } from "./errors";
import { detectFormat, ingestPath } from "./index";
import { inlineTaskFiles, unsafeTaskPath, type InlineTask } from "./interchange-files";
import { writeAwkwardBytes, writeFixtureRun } from "./fixtures";

const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

describe("a line's files", () => {
  const task = (over: Partial<InlineTask>): InlineTask => ({ file: "x.jsonl", line: 7, display: "x.jsonl:7 t", text: {}, base64: {}, sha256: null, ...over });

  test("come back as bytes in the order a directory walk lists them, hashes checked", () => {
    const issues = new IssueList();
    const bin = Buffer.from([0xff, 0x00, 0xfe]);
    const text = { "a.txt": "x", "a/b.sh": "echo\0done\n", "instruction.md": "# T\n" };
    const files = inlineTaskFiles(task({ text, base64: { "env/blob.bin": bin.toString("base64") }, sha256: { "a.txt": sha256("x"), "a/b.sh": sha256("echo\0done\n"), "instruction.md": sha256("# T\n"), "env/blob.bin": sha256(bin) } }), issues);
    expect(issues.items).toEqual([]);
    expect(files.map((f) => f.rel)).toEqual(["a/b.sh", "a.txt", "env/blob.bin", "instruction.md"]);
    expect(files[0]?.bytes.equals(Buffer.from("echo\0done\n"))).toBe(true);
    expect(files[2]?.bytes.equals(bin)).toBe(true);
  });

  test("bad paths, bad base64, a path twice and hashes that do not match are issues on the line", () => {
    const issues = new IssueList();
    inlineTaskFiles(
      task({
        text: { "../etc/passwd": "x", "/abs": "x", "a//b": "x", "ok.txt": "changed", "both.bin": "x" },
        base64: { "both.bin": "AAAA", "bad.bin": "not base64!" },
        sha256: { "ok.txt": sha256("original"), "ghost.txt": sha256("") },
      }),
      issues,
    );
    const messages = issues.items.map((i) => `${i.file}:${i.line} ${i.message}`);
    expect(messages).toEqual([
      'x.jsonl:7 files: "../etc/passwd" must be a relative path without empty, `.` or `..` parts',
      'x.jsonl:7 files: "/abs" must be a relative path without empty, `.` or `..` parts',
      'x.jsonl:7 files: "a//b" must be a relative path without empty, `.` or `..` parts',
      "x.jsonl:7 files_base64: both.bin is in files too",
      "x.jsonl:7 files_base64: bad.bin is not base64",
      "x.jsonl:7 sha256: ok.txt does not match its hash (the file was changed or re-encoded)",
      "x.jsonl:7 sha256: no hash for both.bin",
      "x.jsonl:7 sha256: ghost.txt is not among the files",
    ]);
  });

  test("unsafe task paths", () => {
    for (const p of ["", ".", "a/./b", "a\\b", "a/\u0001", "x/".repeat(33) + "y", `${"n".repeat(256)}`]) expect(unsafeTaskPath(p), JSON.stringify(p)).not.toBeNull();
    for (const p of ["instruction.md", "tests/test_outputs.py", "a b/ü.txt", ".hidden/x"]) expect(unsafeTaskPath(p)).toBeNull();
  });
});

describe.each(BACKENDS)("JSONL import on %s", (backend) => {
  let database: TestDatabase;
  let fixture = "";
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rst-jsonl-"));

  async function exportJsonl(search: string): Promise<string> {
    const c = canonicalFilter(search);
    if (!c.ok) throw new Error(c.message);
    const started = await exportFrom(database.db, CLI_ACTOR, { filter: c.filter, search: c.search, format: "jsonl" });
    const chunks: Buffer[] = [];
    for await (const chunk of started.body) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  }
  const file = (name: string, text: string) => {
    const p = path.join(tmp, name);
    fs.writeFileSync(p, text);
    return p;
  };
  const withRun = (line: string, from: string, to: string) => line.replace(`"run":"${from}"`, `"run":"${to}"`);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    fixture = writeFixtureRun("ix-a");
    writeAwkwardBytes(fixture);
    // Text with the NUL marker in it (stored as base64 to keep the marker unambiguous, still text).
    fs.writeFileSync(path.join(fixture, "tasks/s2/instruction.md"), "\uFEFF# Ünïcode ✓ and a ␀ marker\n");
    await ingestPath(database.db, fixture);
  });
  afterAll(async () => {
    await database?.close();
    for (const d of [fixture, tmp]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  test("an export imported into another run exports again as the same lines; and again, identically", async () => {
    const a = await exportJsonl("run=ix-a");
    const aFile = file("a.jsonl", a);
    expect(await detectFormat(aFile)).toBe("jsonl");
    const s = await ingestPath(database.db, aFile, { runName: "ix-copy" });
    expect(s).toMatchObject({ format: "jsonl", run: "ix-copy", tasksNew: 5, trialsNew: 0, files: 32, unchanged: false, warnings: [] });

    const b = await exportJsonl("run=ix-copy");
    const aLines = a.trimEnd().split("\n");
    const bLines = b.trimEnd().split("\n");
    // Text holding the NUL marker is stored as base64 but is text: it leaves, and is read, as text.
    const s2 = JSON.parse(aLines.find((l) => l.includes('"id":"s2"')) ?? "{}");
    expect(s2.files["instruction.md"]).toBe("\uFEFF# Ünïcode ✓ and a ␀ marker\n");
    expect(s2.metadata.metrics.instruction_words).toBeGreaterThan(0);
    expect(bLines).toHaveLength(5);
    // Every field but the run's name, and the flags the checks raise from trials (JSONL carries none).
    const comparable = (line: string) => {
      const l = JSON.parse(line);
      delete l.metadata.run;
      delete l.metadata.open_flags;
      return l;
    };
    expect(bLines.map(comparable)).toEqual(aLines.map(comparable));
    // The lineage is whole again: parents linked, depths and roots as in the original.
    const rows = await database.db
      .select({ extId: tasks.extId, parentId: tasks.parentId, depth: tasks.depth })
      .from(tasks)
      .innerJoin(runs, eq(runs.id, tasks.runId))
      .where(eq(runs.name, "ix-copy"))
      .orderBy(tasks.extId);
    expect(rows.map((r) => [r.extId, r.parentId !== null, r.depth])).toEqual([["a1", true, 1], ["a2", true, 1], ["b1", true, 2], ["s1", false, 0], ["s2", false, 0]]);

    // A JSONL-born run round-trips exactly, byte for byte.
    await ingestPath(database.db, file("b.jsonl", b), { runName: "ix-copy2" });
    const c = await exportJsonl("run=ix-copy2");
    expect(c).toBe(bLines.map((l) => `${withRun(l, "ix-copy", "ix-copy2")}\n`).join(""));

    // A second import of the same file adds nothing.
    const again = await ingestPath(database.db, aFile, { runName: "ix-copy" });
    expect(again).toMatchObject({ unchanged: true, tasksNew: 0, tasksChanged: 0, tasksUnchanged: 5 });
  });

  test("the run comes from metadata.run, else the file's name; a subset names parents it lacks as warnings", async () => {
    const subset = await exportJsonl("run=ix-a&round_min=1");
    const s = await ingestPath(database.db, file("later-rounds.jsonl", subset.replaceAll('"run":"ix-a"', '"run":"ix-later"')));
    expect(s.run).toBe("ix-later");
    expect(s.warnings.map((w) => `${w.file}:${w.line} ${w.message}`)).toEqual([
      "later-rounds.jsonl:1 task a1: its parent s1 is neither in this file nor in the run; imported as the root of its own tree",
      "later-rounds.jsonl:2 task a2: its parent s2 is neither in this file nor in the run; imported as the root of its own tree",
    ]);
    const bare = JSON.stringify({ id: "solo", status: "accepted", files: { "instruction.md": "# Solo\n" } });
    expect((await ingestPath(database.db, file("bare-run.jsonl", `${bare}\n`))).run).toBe("bare-run");
  });

  test("every bad line is named with its file and line, and nothing of the run is written", async () => {
    const good = (id: string, over: Record<string, unknown> = {}) =>
      JSON.stringify({ id, round: 0, parent_id: null, status: "accepted", metadata: { run: "ix-bad" }, files: { "instruction.md": `# ${id}\n` }, ...over });
    const lines = [
      good("t1"),
      "{not json",
      good("t2", { sha256: { "instruction.md": sha256("something else") } }),
      good("t3", { files: { "instruction.md": "# t3\n", "../escape.sh": "rm -rf /\n" } }),
      good("t4", { files: { "solution/solve.sh": "echo\n" } }),
      good("t1"),
      good("t5", { status: "maybe" }),
      good("t6", { metadata: { run: "elsewhere" } }),
      good("t7", { round: 1, parent_id: "t8" }),
      good("t8", { round: 2, parent_id: "t7" }),
      good("t9", { files: { "instruction.md": "# t9\n", "task.toml": "[task\nname = 1\n" } }),
    ];
    const bad = file("bad.jsonl", `${lines.join("\n")}\n`);
    const err = await ingestPath(database.db, bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    const found = (err as IngestError).issues.map((i) => `${i.file}:${i.line ?? "-"} ${i.message}`);
    // Lines are checked while others are being read: the order of the list is not the file's.
    expect(found).toHaveLength(11);
    expect(found).toEqual(expect.arrayContaining([
      expect.stringMatching(/^bad\.jsonl:2 invalid JSON: /),
      "bad.jsonl:3 sha256: instruction.md does not match its hash (the file was changed or re-encoded)",
      'bad.jsonl:4 files: "../escape.sh" must be a relative path without empty, `.` or `..` parts',
      "bad.jsonl:5 t4:- missing instruction.md",
      "bad.jsonl:6 task t1 appears twice (first on line 1)",
      expect.stringMatching(/^bad\.jsonl:7 status: /),
      'bad.jsonl:8 metadata.run is "elsewhere", but the first line\'s is "ix-bad": pass --run NAME to import them into one run',
      expect.stringMatching(/^bad\.jsonl:11 t9\/task\.toml:1 invalid TOML: /),
      "bad.jsonl:9 task t7: its parent links lead back to itself",
      "bad.jsonl:10 task t8: its parent links lead back to itself",
      "bad.jsonl:9 task t7: round 1 is not after its parent's round 2",
    ]));
    expect(await database.db.select().from(runs).where(eq(runs.name, "ix-bad"))).toEqual([]);
    expect(await database.db.select({ id: tasks.id }).from(tasks).where(and(eq(tasks.extId, "t1")))).toEqual([]);
  });
});
