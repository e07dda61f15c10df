import { createCssVariablesTheme, createHighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import { describe, expect, it } from "vitest";
import { BASH_LINES, PYTHON_LINES, random, randomScript } from "@/lib/diff/random-edits";
import { clearHighlightCache, highlightCode, MAX_HIGHLIGHT_LINES } from "./highlight";
import { MAX_LINE_CHARS } from "./lines";
import { TONE_ELIDED, TONES, toneIndex } from "./tones";

const text = (line: readonly (readonly [number, string])[] | undefined) => (line ?? []).map(([, t]) => t).join("");

describe("highlightCode", () => {
  // First in this file: the first call of the process must already agree.
  it("tokenizes line by line exactly as one shiki pass over the whole text", async () => {
    const h = await createHighlighterCore({
      themes: [createCssVariablesTheme({ name: "rst-palette", fontStyle: false })],
      langs: [...(await import("shiki/langs/bash.mjs")).default, ...(await import("shiki/langs/python.mjs")).default],
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
    const toneOf = (color: string | undefined) => {
      const m = color ? /^var\(--shiki-(?:token-)?([a-z-]+)/.exec(color) : null;
      return m?.[1] ? toneIndex(m[1]) : 0;
    };
    const next = random(7);
    for (let k = 0; k < 20; k++) {
      for (const [l, vocabulary] of [["python", PYTHON_LINES], ["bash", BASH_LINES]] as const) {
        const code = randomScript(next, vocabulary, 150);
        clearHighlightCache();
        const mine = (await highlightCode(code, l)).lines;
        // No time limit for the reference: its first lines compile the patterns.
        const one = h.codeToTokens(code, { lang: l, theme: "rst-palette", tokenizeMaxLineLength: 2_000, tokenizeTimeLimit: 0 });
        // Lines over MAX_LINE_CHARS are clipped by highlightCode; none here are.
        expect(mine).toEqual(one.tokens.slice(0, mine.length).map((line) => line.map((t) => [toneOf(t.color), t.content])));
      }
    }
  });

  it("returns palette-indexed tokens that reassemble the source exactly", async () => {
    const src = "#!/bin/bash\n# build it\nset -euo pipefail\necho \"hi $USER\" | tee out.txt\n";
    const out = await highlightCode(src, "bash");
    expect(out.lines).toHaveLength(4);
    expect(out.lines.map(text)).toEqual(src.split("\n").slice(0, 4));
    const tones = new Set(out.lines.flat().map(([tone]) => TONES[tone]));
    expect(tones.has("comment")).toBe(true);
    expect(tones.has("string")).toBe(true);
  });

  it("keeps a trailing carriage return that the grammar would swallow", async () => {
    const out = await highlightCode("echo a\r\necho b\r\n", "bash");
    expect(out.lines.map(text)).toEqual(["echo a\r", "echo b\r"]);
  });

  it("shows files without a grammar plain", async () => {
    const out = await highlightCode("a,b\n1,2", null);
    expect(out.highlightedLines).toBe(0);
    expect(out.lines).toEqual([[[0, "a,b"]], [[0, "1,2"]]]);
  });

  it("highlights only the head of a very large file and clips overlong lines", async () => {
    const big = Array.from({ length: MAX_HIGHLIGHT_LINES + 50 }, (_, i) => `x=${i}`).join("\n");
    const out = await highlightCode(`${big}\n${"y".repeat(MAX_LINE_CHARS + 10)}`, "bash");
    expect(out.highlightedLines).toBe(MAX_HIGHLIGHT_LINES);
    expect(out.lines).toHaveLength(MAX_HIGHLIGHT_LINES + 51);
    const last = out.lines[out.lines.length - 1] ?? [];
    expect(last[last.length - 1]?.[0]).toBe(TONE_ELIDED);
    expect(out.clippedLines).toBe(1);
  });

  // A heredoc and a multi-line string that cross the 64-line chunks the tokenizer works in.
  const script = (extra: string) =>
    [
      "#!/bin/bash",
      ...Array.from({ length: 60 }, (_, i) => `echo "step ${i}" >> /tmp/log`),
      "cat > /etc/app.conf <<'EOF'",
      ...Array.from({ length: 20 }, (_, i) => `key${i} = value ${i} # not a comment`),
      "EOF",
      ...Array.from({ length: 70 }, (_, i) => `cp /src/${i} /dst/${i}`),
      extra,
      'printf "%s\n" "done"',
    ].join("\n") + "\n";

  it("continues the grammar state across chunks exactly as one pass would", async () => {
    clearHighlightCache();
    const out = await highlightCode(script(""), "bash");
    const inHeredoc = out.lines[70] ?? [];
    expect(text(inHeredoc)).toBe("key8 = value 8 # not a comment");
    expect(inHeredoc.some(([tone]) => TONES[tone] === "comment")).toBe(false);
    expect(out.lines.map(text)).toEqual(script("").split("\n").slice(0, -1));
  });

  it("gives a version that extends another the same tokens as highlighting it alone", async () => {
    const parent = script("");
    const child = script('for f in /dst/*; do sha256sum "$f"; done > /tmp/sums\ncat <<EOF\nopen heredoc at the end');
    clearHighlightCache();
    const alone = await highlightCode(child, "bash");
    clearHighlightCache();
    await highlightCode(parent, "bash");
    const reused = await highlightCode(child, "bash", { base: parent });
    expect(reused).toEqual(alone);
    // And from the cache, by content.
    expect(await highlightCode(child, "bash")).toEqual(alone);
    const python = "import os\n\n\ndef test_a():\n    assert os.path.exists('/app/a')\n";
    clearHighlightCache();
    const pyAlone = await highlightCode(`${python}${'"""doc\n'.repeat(1)}still a string\n"""\n`, "python");
    clearHighlightCache();
    await highlightCode(python, "python");
    expect(await highlightCode(`${python}${'"""doc\n'.repeat(1)}still a string\n"""\n`, "python", { base: python })).toEqual(pyAlone);
  });
});
