// Syntax highlighting with shiki, as palette-indexed token arrays (never HTML). One highlighter
// per process, created on first use; grammars load on demand. The JavaScript regex engine
// avoids shipping oniguruma's WASM into the server bundle.
//
// Results are kept per content (a diff page shows the same file versions again and again), and a
// file is tokenized in chunks with the grammar state at each chunk start kept too: a child task's
// solution mostly extends its parent's, so the lines the two share at the start need no second pass.
import type { HighlighterCore, LanguageRegistration } from "shiki/core";
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

type Grammar = ReturnType<HighlighterCore["getLanguage"]>;
/** The grammar state between two lines; null before the first line of a file. */
type LineState = Parameters<Grammar["tokenizeLine2"]>[1];

/** Lines this long are not run through the grammar (one plain token; the state carries over). */
const TOKENIZE_MAX_LINE = 2_000;
const TOKENIZE_TIME_LIMIT_MS = 200;

/**
 * One line through the grammar, the way shiki's codeToTokens reads each line of a text (empty and
 * overlong lines leave the state as it was): the palette-indexed tokens and the state after it.
 */
type LineTokenizer = (line: string, state: LineState) => { tokens: CodeLine; end: LineState };

function lineTokenizer(h: HighlighterCore, lang: CodeLang): LineTokenizer {
  // The theme first (as codeToTokens does): a grammar resolves its scopes' colors against the theme
  // set when it is fetched.
  const { theme, colorMap } = h.setTheme(THEME);
  const grammar = h.getLanguage(lang);
  const replacements = theme.colorReplacements ?? {};
  const tones = colorMap.map((color) => toneOf(color ? (replacements[color.toLowerCase()] ?? color) : color));
  // A line seen before in the same state reads the same (scripts repeat `fi`, `done`, `EOF`, …).
  const seen = new Map<LineState, Map<string, { tokens: CodeLine; end: LineState }>>();
  const read: LineTokenizer = (line, state) => {
    let known = seen.get(state);
    const hit = known?.get(line);
    if (hit) return hit;
    const out = tokenizeOne(line, state);
    if (!known) seen.set(state, (known = new Map()));
    known.set(line, out);
    return out;
  };
  const tokenizeOne: LineTokenizer = (line, state) => {
    // shiki splits a text on \r?\n and so never hands the grammar a line's final \r; it gets its
    // own plain token here (the view marks it).
    const body = line.endsWith("\r") ? line.slice(0, -1) : line;
    let row: CodeToken[];
    let end = state;
    if (body === "") row = [];
    else if (body.length >= TOKENIZE_MAX_LINE) row = [[0, body]];
    else {
      // The regex engine compiles a grammar's patterns on first use, which can take longer than the
      // limit in a fresh process (its first file came out cut short, and was cached so): each try
      // compiles more of them, so a few more tries before a line counts as too slow.
      let result = grammar.tokenizeLine2(body, state, TOKENIZE_TIME_LIMIT_MS);
      for (let retry = 0; result.stoppedEarly && retry < 3; retry++) result = grammar.tokenizeLine2(body, state, TOKENIZE_TIME_LIMIT_MS);
      const t = result.tokens;
      const n = t.length / 2;
      row = [];
      for (let j = 0; j < n; j++) {
        const from = t[2 * j]!;
        const to = j + 1 < n ? t[2 * j + 2]! : body.length;
        if (from === to) continue;
        row.push([tones[(t[2 * j + 1]! & 0xff8000) >>> 15] ?? 0, body.slice(from, to)]);
      }
      end = result.ruleStack;
    }
    if (body !== line) row.push([0, "\r"]);
    return { tokens: clipTokens(row, line), end };
  };
  return read;
}

const sameState = (a: LineState, b: LineState) => a === b || (a !== null && b !== null && a.equals(b));

interface Tokenized {
  /** The lines that went through the grammar, and their tokens (clipped, `\r` restored). */
  source: readonly string[];
  lines: CodeLine[];
  /** The grammar state after each of those lines. */
  ends: LineState[];
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

function tokenize(next: LineTokenizer, head: readonly string[], base: Tokenized | undefined): Tokenized {
  // Lines before the first difference tokenize as they did in `base`.
  const shared = base ? sharedLines(head, base.source) : 0;
  const lines = base ? base.lines.slice(0, shared) : [];
  const ends = base ? base.ends.slice(0, shared) : [];
  let state: LineState = shared > 0 ? (ends[shared - 1] ?? null) : null;
  for (let at = shared; at < head.length; at++) {
    const { tokens, end } = next(head[at] ?? "", state);
    lines.push(tokens);
    ends.push(end);
    state = end;
  }
  return { source: head, lines, ends };
}

/** How many of a file's first lines go through the grammar (MAX_HIGHLIGHT_LINES, _CHARS). */
function highlightable(lines: readonly string[]): number {
  let count = 0;
  let chars = 0;
  while (count < lines.length && count < MAX_HIGHLIGHT_LINES) {
    chars += (lines[count]?.length ?? 0) + 1;
    if (chars > MAX_HIGHLIGHT_CHARS) break;
    count++;
  }
  return count;
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
  const count = lang ? highlightable(lines) : 0;
  const out: CodeLine[] = [];
  if (lang && count > 0) {
    const h = await getHighlighter();
    await ensureLang(h, lang);
    const key = `${lang}:${contentKey(code)}`;
    let done = tokenized.get(key);
    if (!done) {
      const base = opts.base === undefined ? undefined : tokenized.get(`${lang}:${contentKey(opts.base)}`);
      done = tokenize(lineTokenizer(h, lang), lines.slice(0, count), base);
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

/** A row of a whole-file diff: op 0 context, 1 deleted, 2 added; 1-based line numbers, 0 for none. */
export type SideRow = readonly [op: 0 | 1 | 2, oldNo: number, newNo: number, ...rest: unknown[]];

export interface HighlightedSides {
  /** By old line number − 1; only deleted lines are filled (the rest are []). */
  old: CodeLine[];
  /** Every line of the new side. */
  new: CodeLine[];
}

/** Whether `rows` walk every line of both sides once, in order (a whole-file diff). */
function coversBoth(rows: readonly SideRow[], oldCount: number, newCount: number): boolean {
  let o = 0;
  let n = 0;
  for (const [op, oldNo, newNo] of rows) {
    if (op !== 2 && oldNo !== ++o) return false;
    if (op !== 1 && newNo !== ++n) return false;
  }
  return o === oldCount && n === newCount;
}

/**
 * Both sides of a whole-file diff, tokenized as `highlightCode` would tokenize each file alone,
 * with less work: the new side in full, of the old side only its deleted lines (what the diff view
 * shows of it). A context line is tokenized once for both sides while the grammar states of the
 * two agree before it (the tokens and the state after it are then the same); after a change the
 * old side is followed line by line until the states agree again, and not at all after its last
 * deleted line. A side highlighted before (by content) is read from the cache.
 */
export async function highlightSides(oldCode: string, newCode: string, lang: CodeLang | null, rows: readonly SideRow[]): Promise<HighlightedSides> {
  const oldLines = splitLines(oldCode);
  const newLines = splitLines(newCode);
  const oldCount = lang ? highlightable(oldLines) : 0;
  const newCount = lang ? highlightable(newLines) : 0;
  const fullOld = async () => {
    const deleted = new Set(rows.flatMap(([op, oldNo]) => (op === 1 ? [oldNo] : [])));
    const all = (await highlightCode(oldCode, lang, { base: newCode })).lines;
    return all.map((line, i) => (deleted.has(i + 1) ? line : []));
  };
  if (!lang || !coversBoth(rows, oldLines.length, newLines.length)) {
    return { old: await fullOld(), new: (await highlightCode(newCode, lang, { base: oldCode })).lines };
  }
  const h = await getHighlighter();
  await ensureLang(h, lang);
  const newKey = `${lang}:${contentKey(newCode)}`;
  const cachedOld = tokenized.get(`${lang}:${contentKey(oldCode)}`);
  const cachedNew = tokenized.get(newKey);
  const next = lineTokenizer(h, lang);

  let lastDeleted = 0;
  for (const [op, oldNo] of rows) if (op === 1) lastDeleted = oldNo;
  const oldOut: CodeLine[] = oldLines.map(() => []);
  const newOut: CodeLine[] = [];
  const newEnds: LineState[] = [];
  let os: LineState = null;
  let ns: LineState = null;
  let synced = true;

  const stepNew = (j: number): void => {
    if (j >= newCount) {
      newOut.push(plainLine(newLines[j] ?? ""));
      return;
    }
    if (cachedNew) {
      newOut.push(cachedNew.lines[j] ?? []);
      ns = cachedNew.ends[j] ?? null;
    } else {
      const { tokens, end } = next(newLines[j] ?? "", ns);
      newOut.push(tokens);
      ns = end;
    }
    newEnds.push(ns);
  };
  const stepOld = (i: number, keep: boolean): void => {
    if (i >= oldCount) {
      if (keep) oldOut[i] = plainLine(oldLines[i] ?? "");
      return;
    }
    if (cachedOld) {
      if (keep) oldOut[i] = cachedOld.lines[i] ?? [];
      os = cachedOld.ends[i] ?? null;
    } else {
      const { tokens, end } = next(oldLines[i] ?? "", os);
      if (keep) oldOut[i] = tokens;
      os = end;
    }
  };

  // The old side is followed while something of it is still to be shown (or costs nothing to follow).
  let oldFollowed = true;
  for (const [op, oldNo, newNo] of rows) {
    const i = oldNo - 1;
    const j = newNo - 1;
    if (op === 0) {
      const same = synced && i < oldCount && j < newCount && oldLines[i] === newLines[j];
      if (same && !cachedNew && cachedOld) {
        // The old side's tokens and state stand for this line on both sides.
        newOut.push(cachedOld.lines[i] ?? []);
        ns = cachedOld.ends[i] ?? null;
        newEnds.push(ns);
      } else stepNew(j);
      if (!cachedOld && oldNo >= lastDeleted) oldFollowed = false;
      if (!oldFollowed) {
        synced = false;
        continue;
      }
      if (same) os = ns;
      else stepOld(i, false);
    } else if (op === 1) stepOld(i, true);
    else stepNew(j);
    synced = oldFollowed && sameState(os, ns);
  }
  if (!cachedNew && newCount > 0) tokenized.set(newKey, { source: newLines.slice(0, newCount), lines: newOut.slice(0, newCount), ends: newEnds });
  return { old: oldOut, new: newOut };
}
