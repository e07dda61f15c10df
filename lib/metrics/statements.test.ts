import type { Node } from "web-tree-sitter";
import { describe, expect, it } from "vitest";
import { clearShellStatementCache, shellStatementSpans } from "@/lib/diff/bash";
import { clearPytestStatementMemo, measurePytest } from "./pytest";
import { clearBashStatementMemo, readBashTree } from "./shell-tree-sitter";
import { StatementMemo } from "./statements";
import { withStatements, type TopLevel } from "./script-parse";

// The readers remember each top-level statement's reading by its text and place it again in
// another script: a statement seen before must read exactly as in a fresh read of the script.
const PARENT = [
  "cat <<EOF > /app/notes",
  "# not a comment: heredoc text",
  "EOF",
  "# a comment",
  "setup() { mkdir -p /app/data; }",
  "setup",
  "sqlite3 /app/db.sqlite 'select 1' | \\",
  "  sort -u > /app/out  # trailing comment",
  "nohup srv &",
  "",
].join("\n");
// The parent's statements after new ones, the first of them starting mid-line; one repeated.
const CHILD = `set -euo pipefail\necho start; ${PARENT}\nsetup\ncat <<'PY' | python3 -\nprint(1)\nPY\n`;

const bash = (source: string) => withStatements("bash", source, (script) => readBashTree(script, source.split("\n")));

async function fresh<T>(read: () => Promise<T>): Promise<T> {
  clearBashStatementMemo();
  clearPytestStatementMemo();
  clearShellStatementCache();
  return read();
}

describe("statement-by-statement readings", () => {
  it("reads a script whose statements were seen elsewhere as a fresh read does", async () => {
    const expected = await fresh(() => bash(CHILD));
    const expectedSpans = await fresh(() => shellStatementSpans(CHILD));
    await fresh(() => bash(PARENT));
    await shellStatementSpans(PARENT);
    expect(await bash(CHILD)).toEqual(expected);
    expect(await shellStatementSpans(CHILD)).toEqual(expectedSpans);
    // Rows and offsets really are placed: the heredoc and the comments moved down one row.
    expect(expected.heredocs.map((h) => h.row)).toEqual([1, 12]);
    expect(expected.facts.commentRows).toEqual([4, 8]);
    const cuts = (expectedSpans ?? []).flatMap((span) => span.slice(2).filter((_, k) => k % 3 === 0).map((start, k) => CHILD.slice(start, span[3 + 3 * k])));
    expect(cuts.map((text) => text.trim())).toEqual(["# not a comment: heredoc text", "EOF", "print(1)", "PY"]);
  });

  it("reads pytest files whose definitions were seen elsewhere as a fresh read does", async () => {
    const parent = 'import os\n\ndef test_a():\n    assert os.path.exists("/app/a")\n\nclass TestB:\n    def test_b(self):\n        assert 1\n        assert 2\n';
    const child = `${parent}\ndef helper():\n    assert 0\n\ndef test_c():\n    p = "/app/c"\n    assert p\n`;
    const expected = await fresh(() => measurePytest(child));
    await fresh(() => measurePytest(parent));
    expect(await measurePytest(child)).toEqual(expected);
    expect(expected).toMatchObject({ tests: 3, asserts: 4, testNames: ["test_a", "TestB::test_b", "test_c"] });
  });

  it("reads a tree with a syntax error whole", async () => {
    const broken = `${PARENT}if then fi (\n`;
    const reading = await fresh(() => bash(broken));
    expect(reading.hasError).toBe(true);
    expect(await bash(broken)).toEqual(reading);
  });
});

describe("StatementMemo", () => {
  const node = (text: string): TopLevel => ({
    type: "command",
    isNamed: true,
    startIndex: 0,
    endIndex: text.length,
    startRow: 0,
    key: `command\u0000${text}`,
    node: { type: "command", text } as unknown as Node,
  });

  it("stays within its capacity, keeps what is read again, and reads again what it dropped", () => {
    const memo = new StatementMemo<string>(200);
    let reads = 0;
    const read = (n: Node) => {
      reads++;
      return n.text.toUpperCase();
    };
    // Keys are "command" + NUL + 12 characters: 20 characters each, 5 per generation.
    const text = (i: number) => `echo ${String(i).padStart(7, "0")}`;
    for (let i = 0; i < 100; i++) {
      expect(memo.read(node(text(i)), read)).toBe(text(i).toUpperCase());
      // The first statement is read again after every other: it is never dropped.
      expect(memo.read(node(text(0)), read)).toBe(text(0).toUpperCase());
      expect(memo.size).toBeLessThanOrEqual(11);
    }
    expect(reads).toBe(100);
    expect(memo.hits).toBe(100);
    // One of the first statements, long dropped, is read again.
    memo.read(node(text(1)), read);
    expect(reads).toBe(101);
  });
});
