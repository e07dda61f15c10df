import { describe, expect, test } from "vitest";
import { findSnippet, SNIPPET_CHARS } from "./snippets";

const files = [
  { path: "tests/test_outputs.py", text: "def test_db():\n    assert sqlite3_ok()\n    run('sqlite3 /app/inv.db')\n" },
  { path: "solution/solve.sh", text: "#!/bin/bash\nset -euo pipefail\nmkdir -p /app/out\nsqlite3 /app/inv.db 'SELECT count(*) FROM items' > /app/out/count.txt\n" },
  { path: "instruction.md", text: "# Inventory\n\nCount the items in the SQLite database.\n" },
  { path: "environment/Dockerfile", text: "RUN apt-get install -y sqlite3\n" },
];

const marked = (s: { text: string; marks: [number, number][] }) => s.marks.map(([a, b]) => s.text.slice(a, b));

describe("findSnippet", () => {
  test("finds the word in the searched files only, solutions before tests, whole words only", () => {
    const s = findSnippet(files, "sqlite3");
    expect(s).toMatchObject({ path: "solution/solve.sh", line: 4 });
    expect(marked(s!)).toEqual(["sqlite3"]);
    // `sqlite3_ok` is another word: the tests' line 2 is not a match, line 3 is.
    expect(findSnippet([files[0]!], "sqlite3")).toMatchObject({ path: "tests/test_outputs.py", line: 3 });
  });

  test("prefers the instruction, folds case, and takes the line with the most terms", () => {
    expect(findSnippet(files, "sqlite")).toMatchObject({ path: "instruction.md", line: 3 });
    const s = findSnippet(files, "sqlite3 items");
    expect(s).toMatchObject({ path: "solution/solve.sh", line: 4 });
    expect(marked(s!)).toEqual(["sqlite3", "items"]);
  });

  test("reads phrases and paths as the index does: words in order, anything else between", () => {
    expect(marked(findSnippet(files, '"set -euo pipefail"')!)).toEqual(["set -euo pipefail"]);
    expect(marked(findSnippet(files, "/app/out/count.txt")!)).toEqual(["app/out/count.txt"]);
    expect(findSnippet(files, '"pipefail sqlite3"')).toBeNull();
    expect(findSnippet(files, "")).toBeNull();
    expect(findSnippet(files, "zebra")).toBeNull();
  });

  test("cuts a long line around its first match, marks moved along", () => {
    const long = `${"x".repeat(500)} needle ${"y".repeat(500)}`;
    const s = findSnippet([{ path: "solution/solve.sh", text: long }], "needle")!;
    expect(s.text.length).toBeLessThanOrEqual(SNIPPET_CHARS);
    expect(marked(s)).toEqual(["needle"]);
    const end = findSnippet([{ path: "solution/solve.sh", text: `${"z ".repeat(200)}tail` }], "tail")!;
    expect(end.text.endsWith("tail")).toBe(true);
    expect(marked(end)).toEqual(["tail"]);
  });

  test("treats regular-expression characters in the query as text", () => {
    expect(findSnippet(files, "count(*)")).toMatchObject({ path: "instruction.md", line: 3 });
    expect(findSnippet(files, "count(*) FROM")).toMatchObject({ path: "solution/solve.sh", line: 4 });
    expect(findSnippet(files, ".*")).toBeNull();
  });
});
