import { describe, expect, it } from "vitest";
import { instructionSentences, newUnits, sentenceKey, shellCommandsByLine } from "./units";

const texts = (units: { text: string }[]) => units.map((u) => u.text);

describe("instructionSentences", () => {
  it("splits paragraphs into sentences and keeps list items, headings and code blocks apart", () => {
    const md = [
      "# Nightly backup",
      "",
      "Back up the database at `/app/data.db`. Use e.g. sqlite3 for it;",
      "the copy must be consistent.",
      "",
      "Requirements:",
      "- Write `/app/backup/archive.tgz`.",
      "* Keep file modes",
      "  even for hidden files.",
      "1. Log to `/var/log/backup.log`.",
      "",
      "> Quoted: do not delete anything.",
      "",
      "```bash",
      "sqlite3 /app/data.db .dump",
      "```",
      "",
      "| file | mode |",
      "|------|------|",
      "| a.db | 0600 |",
      "",
      "---",
    ].join("\r\n");
    expect(texts(instructionSentences(md))).toEqual([
      "Nightly backup",
      "Back up the database at `/app/data.db`.",
      "Use e.g. sqlite3 for it; the copy must be consistent.",
      "Requirements:",
      "Write `/app/backup/archive.tgz`.",
      "Keep file modes even for hidden files.",
      "Log to `/var/log/backup.log`.",
      "Quoted: do not delete anything.",
      "sqlite3 /app/data.db .dump",
      "file | mode",
      "a.db | 0600",
    ]);
  });

  it("normalizes case, spacing, emphasis and final punctuation for comparison", () => {
    expect(sentenceKey("Keep  **file** modes.")).toBe(sentenceKey("keep file modes"));
    expect(sentenceKey("Keep file modes")).not.toBe(sentenceKey("Keep dir modes"));
  });
});

describe("shellCommandsByLine (fallback)", () => {
  it("joins continuations, keeps heredocs whole, drops comments and blank lines", () => {
    const script = [
      "#!/bin/bash",
      "set -e  # strict",
      "",
      "tar czf /backup/a.tgz \\",
      "    -C /app data",
      "sqlite3 /app/db <<'SQL'",
      "CREATE TABLE t(a); -- # not a comment",
      "SQL",
      "cat <<-EOF > /app/x",
      "\tvalue",
      "\tEOF",
      "echo '# kept' \"#too\"",
      "grep x <<< \"$y\"",
    ].join("\n");
    expect(texts(shellCommandsByLine(script))).toEqual([
      "set -e",
      "tar czf /backup/a.tgz -C /app data",
      "sqlite3 /app/db <<'SQL'\nCREATE TABLE t(a); -- # not a comment\nSQL",
      "cat <<-EOF > /app/x\n\tvalue\nEOF",
      "echo '# kept' \"#too\"",
      'grep x <<< "$y"',
    ]);
  });
});

describe("newUnits", () => {
  const u = (...keys: string[]) => keys.map((k) => ({ text: k.toUpperCase(), key: k }));
  it("compares multisets by default and sets on request", () => {
    expect(newUnits(u("a", "b"), u("b", "a", "a", "c"))).toEqual(["A", "C"]);
    expect(newUnits(u("a", "b"), u("b", "a", "a", "c"), true)).toEqual(["C"]);
    expect(newUnits(u(), u("x", "x"), true)).toEqual(["X"]);
    expect(newUnits(u("a"), u())).toEqual([]);
  });
});
