import { describe, expect, it } from "vitest";
import { clearHighlightCache, highlightCode, MAX_HIGHLIGHT_LINES } from "@/lib/text/highlight";
import { languageForPath } from "@/lib/text/language";
import type { TaskFiles } from "./files";
import { buildDiffPayload } from "./payload";
import { BASH_LINES, PYTHON_LINES, random, randomEdit, randomScript } from "./random-edits";

const lang = (path: string, text: string) => languageForPath(path, text.slice(0, 200).split("\n")[0]);

/** Each side highlighted alone with nothing cached; of the old side only its deleted lines. */
async function reference(from: TaskFiles, to: TaskFiles) {
  const files = await buildDiffPayload(from, to, new Set());
  const out = [];
  for (const f of files) {
    if (f.status === "unchanged") continue;
    const oldText = from[f.path];
    const newText = to[f.path];
    clearHighlightCache();
    const old = oldText === undefined ? [] : (await highlightCode(oldText, lang(f.path, oldText))).lines;
    clearHighlightCache();
    const next = newText === undefined ? [] : (await highlightCode(newText, lang(f.path, newText))).lines;
    const deleted = new Set(f.rows.flatMap(([op, oldNo]) => (op === 1 ? [oldNo] : [])));
    out.push({ path: f.path, old: old.map((line, i) => (deleted.has(i + 1) ? line : [])), new: next });
  }
  return out;
}

async function shortcut(from: TaskFiles, to: TaskFiles) {
  const files = await buildDiffPayload(from, to, new Set());
  return files.filter((f) => f.status !== "unchanged").map((f) => ({ path: f.path, old: f.old, new: f.new }));
}

describe("buildDiffPayload highlighting", () => {
  it("gives the tokens of each side highlighted alone, whatever the edits and whatever is cached", async () => {
    const next = random(20261201);
    for (let k = 0; k < 60; k++) {
      const bash = randomScript(next, BASH_LINES, 20 + Math.floor(next() * 80));
      const python = randomScript(next, PYTHON_LINES, 20 + Math.floor(next() * 60));
      const from = { "solution/solve.sh": bash, "tests/test_outputs.py": python };
      const to = { "solution/solve.sh": randomEdit(next, bash, BASH_LINES), "tests/test_outputs.py": randomEdit(next, python, PYTHON_LINES) };
      const want = await reference(from, to);
      // Nothing cached; the parent's files cached (its own diff was opened); the child's; both.
      clearHighlightCache();
      expect(await shortcut(from, to), `case ${k}, cold`).toEqual(want);
      clearHighlightCache();
      for (const [path, text] of Object.entries(from)) await highlightCode(text, lang(path, text));
      expect(await shortcut(from, to), `case ${k}, parent cached`).toEqual(want);
      clearHighlightCache();
      for (const [path, text] of Object.entries(to)) await highlightCode(text, lang(path, text));
      expect(await shortcut(from, to), `case ${k}, child cached`).toEqual(want);
      expect(await shortcut(from, to), `case ${k}, both cached`).toEqual(want);
    }
  });

  it("shows the lines past the highlighting limits plain on both sides, as highlighting alone does", async () => {
    const long = (n: number) => Array.from({ length: n }, (_, i) => (i % 7 === 0 ? `cat <<EOF\nline ${i}\nEOF` : `echo ${i}`)).join("\n");
    // ≈ 1.3 lines an item: both versions run past the limit, the child's changes on both sides of it.
    const parent = `${long(MAX_HIGHLIGHT_LINES * 0.8)}\n`;
    const child = `echo first\n${long(MAX_HIGHLIGHT_LINES * 0.8 - 10)}\necho changed\n${long(300)}\n`;
    expect(parent.split("\n").length).toBeGreaterThan(MAX_HIGHLIGHT_LINES + 100);
    const from = { "solution/solve.sh": parent };
    const to = { "solution/solve.sh": child };
    clearHighlightCache();
    expect(await shortcut(from, to)).toEqual(await reference(from, to));
  });

  it("handles added, removed and CRLF files and a shebang that changes the language", async () => {
    const from = { "a.sh": "echo a\r\ncat <<EOF\r\nx\r\nEOF\r\n", "gone.py": "def test_a():\n    pass\n", run: "#!/bin/bash\necho hi\n" };
    const to = { "a.sh": "echo a\ncat <<EOF\r\nx\nEOF\r\necho b\n", "new.py": '"""doc\n"""\n', run: "#!/usr/bin/env python3\nprint('hi')\n" };
    clearHighlightCache();
    expect(await shortcut(from, to)).toEqual(await reference(from, to));
  });
});
