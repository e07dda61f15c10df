// Syntax highlighting with shiki, as palette-indexed token arrays (never HTML). One highlighter
// per process, created on first use; grammars load on demand. The JavaScript regex engine
// avoids shipping oniguruma's WASM into the server bundle.
//
// Results are kept per content (a diff page shows the same file versions again and again), and a
// file is tokenized in chunks with the grammar state at each chunk start kept too: a child task's
// solution mostly extends its parent's, so the lines the two share at the start need no second pass.
import type { GrammarState, HighlighterCore, LanguageRegistration } from "shiki/core";
import { formatInt } from "@/lib/format/number";
import { Lru } from "@/lib/rounds/lru";
import { contentKey } from "./content-key";
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

/** Lines per tokenizing call; a file's grammar state is kept at each chunk start. */
const CHUNK = 64;

interface Tokenized {
  /** The lines that went through the grammar, and their tokens (clipped, `\r` restored). */
  source: readonly string[];
  lines: CodeLine[];
  /** The grammar state at the start of chunk k (line k × CHUNK); undefined at the start of the file. */
  states: (GrammarState | undefined)[];
}

/** Tokenized heads of files by language and content, bounded by lines held (~0.5 kB a line). */
const tokenized = new Lru<string, Tokenized>(60_000, (t) => Math.max(1, t.lines.length));

/** Forget every tokenized file (tests and benchmarks measure the uncached path with it). */
export function clearHighlightCache(): void {
  tokenized.clear();
}

function sharedLines(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function tokenize(h: HighlighterCore, head: readonly string[], lang: CodeLang, base: Tokenized | undefined): Tokenized {
  const lines: CodeLine[] = [];
  const states: (GrammarState | undefined)[] = [];
  let at = 0;
  let state: GrammarState | undefined;
  if (base) {
    // Lines before the first difference tokenize as they did in `base`; restart at the last chunk
    // start before it, where the grammar state is known.
    const chunks = Math.floor(sharedLines(head, base.source) / CHUNK);
    at = chunks * CHUNK;
    lines.push(...base.lines.slice(0, at));
    states.push(...base.states.slice(0, chunks));
    state = base.states[chunks];
  }
  for (; at < head.length; at += CHUNK) {
    states.push(state);
    const part = head.slice(at, at + CHUNK);
    const result = h.codeToTokens(part.join("\n"), {
      lang,
      theme: THEME,
      tokenizeMaxLineLength: 2_000,
      tokenizeTimeLimit: 200,
      grammarState: state,
    });
    state = result.grammarState;
    part.forEach((line, i) => {
      const row: CodeToken[] = (result.tokens[i] ?? []).map((t) => [toneOf(t.color), t.content]);
      // shiki splits on \r?\n and so swallows a trailing \r; put it back so it gets its marker.
      const got = row.reduce((n, [, text]) => n + text.length, 0);
      if (got < line.length) row.push([0, line.slice(got)]);
      lines.push(clipTokens(row, line));
    });
  }
  return { source: head, lines, states };
}

export type HighlightOptions = {
  /**
   * Another version of the same file (the other side of a diff): when it was highlighted before,
   * the lines the two share at the start are taken from it instead of tokenized again.
   */
  base?: string;
};

export async function highlightCode(code: string, lang: CodeLang | null, opts: HighlightOptions = {}): Promise<HighlightedCode> {
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
    const key = `${lang}:${contentKey(code)}`;
    let done = tokenized.get(key);
    if (!done) {
      const base = opts.base === undefined ? undefined : tokenized.get(`${lang}:${contentKey(opts.base)}`);
      done = tokenize(h, lines.slice(0, count), lang, base);
      tokenized.set(key, done);
    }
    out.push(...done.lines);
  }
  for (let i = out.length; i < lines.length; i++) out.push(plainLine(lines[i] ?? ""));
  return {
    lines: out,
    highlightedLines: count,
    clippedLines: lines.filter((l) => l.length > MAX_LINE_CHARS).length,
  };
}
