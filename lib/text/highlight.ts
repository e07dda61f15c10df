// Syntax highlighting with shiki, as palette-indexed token arrays (never HTML). One highlighter
// per process, created on first use; grammars load on demand. The JavaScript regex engine
// avoids shipping oniguruma's WASM into the server bundle.
import type { HighlighterCore, LanguageRegistration } from "shiki/core";
import { formatInt } from "@/lib/format/number";
import type { CodeLang } from "./language";
import { clipLine, MAX_LINE_CHARS, splitLines } from "./lines";
import { type CodeLine, type CodeToken, TONE_ELIDED, toneIndex } from "./tones";

/** Beyond these, the rest of a file is shown plain: large files must open instantly. */
export const MAX_HIGHLIGHT_LINES = 5_000;
export const MAX_HIGHLIGHT_CHARS = 400_000;

export interface HighlightedCode {
  lines: CodeLine[];
  /** Lines [0, highlightedLines) went through the grammar; the rest are plain. */
  highlightedLines: number;
  /** Lines cut at MAX_LINE_CHARS. */
  clippedLines: number;
}

type LangModule = { default: LanguageRegistration[] };

const LOADERS: Record<CodeLang, () => Promise<LangModule>> = {
  bash: () => import("shiki/langs/bash.mjs"),
  python: () => import("shiki/langs/python.mjs"),
  docker: () => import("shiki/langs/docker.mjs"),
  toml: () => import("shiki/langs/toml.mjs"),
  markdown: () => import("shiki/langs/markdown.mjs"),
  json: () => import("shiki/langs/json.mjs"),
  yaml: () => import("shiki/langs/yaml.mjs"),
};

const THEME = "rst-palette";

const globalForShiki = globalThis as unknown as { __rstShiki?: Promise<HighlighterCore> };

function getHighlighter(): Promise<HighlighterCore> {
  globalForShiki.__rstShiki ??= (async () => {
    const { createHighlighterCore, createCssVariablesTheme } = await import("shiki/core");
    const { createJavaScriptRegexEngine } = await import("shiki/engine/javascript");
    return createHighlighterCore({
      themes: [createCssVariablesTheme({ name: THEME, fontStyle: false })],
      langs: [],
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
  })();
  return globalForShiki.__rstShiki;
}

const loaded = new Map<CodeLang, Promise<void>>();

async function ensureLang(h: HighlighterCore, lang: CodeLang): Promise<void> {
  let p = loaded.get(lang);
  if (!p) {
    p = LOADERS[lang]().then((m) => h.loadLanguage(...m.default));
    loaded.set(lang, p);
  }
  await p;
}

/** `var(--shiki-token-keyword)` → the palette index of "keyword". */
function toneOf(color: string | undefined): number {
  const m = color ? /^var\(--shiki-(?:token-)?([a-z-]+)/.exec(color) : null;
  return m?.[1] ? toneIndex(m[1]) : 0;
}

function clipTokens(tokens: CodeToken[], line: string): CodeToken[] {
  if (line.length <= MAX_LINE_CHARS) return tokens;
  const out: CodeToken[] = [];
  let left = clipLine(line).text.length;
  for (const [tone, text] of tokens) {
    if (left <= 0) break;
    out.push([tone, text.slice(0, left)]);
    left -= text.length;
  }
  out.push([TONE_ELIDED, `… ${formatInt(line.length - clipLine(line).text.length)} more characters`]);
  return out;
}

function plainLine(line: string): CodeToken[] {
  return clipTokens([[0, line]], line);
}

export async function highlightCode(code: string, lang: CodeLang | null): Promise<HighlightedCode> {
  const lines = splitLines(code);
  let count = 0;
  if (lang) {
    let chars = 0;
    while (count < lines.length && count < MAX_HIGHLIGHT_LINES) {
      chars += (lines[count]?.length ?? 0) + 1;
      if (chars > MAX_HIGHLIGHT_CHARS) break;
      count++;
    }
  }
  const out: CodeLine[] = [];
  if (lang && count > 0) {
    const h = await getHighlighter();
    await ensureLang(h, lang);
    const head = lines.slice(0, count);
    const { tokens } = h.codeToTokens(head.join("\n"), {
      lang,
      theme: THEME,
      tokenizeMaxLineLength: 2_000,
      tokenizeTimeLimit: 200,
    });
    head.forEach((line, i) => {
      const row: CodeToken[] = (tokens[i] ?? []).map((t) => [toneOf(t.color), t.content]);
      // shiki splits on \r?\n and so swallows a trailing \r; put it back so it gets its marker.
      const got = row.reduce((n, [, text]) => n + text.length, 0);
      if (got < line.length) row.push([0, line.slice(got)]);
      out.push(clipTokens(row, line));
    });
  }
  for (let i = out.length; i < lines.length; i++) out.push(plainLine(lines[i] ?? ""));
  return {
    lines: out,
    highlightedLines: count,
    clippedLines: lines.filter((l) => l.length > MAX_LINE_CHARS).length,
  };
}
