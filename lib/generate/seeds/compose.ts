// What the seed templates share to compose a solution. Real seed pools come from many authors, so
// each seed is written the way one of several authors would: every section of the solution has a
// few alternative implementations (tools, idioms, names, wording), picked per seed with the
// template's rng. Facts and checked paths stay fixed.
import type { Rng } from "../prng";

export type Piece = string | null | false | undefined;

/** Lines of one section, skipping the pieces a variant leaves out. */
export const joinLines = (...parts: Piece[]): string => parts.filter((s): s is string => typeof s === "string" && s !== "").join("\n");
/** Sections of a script, a blank line apart, skipping the pieces a variant leaves out. */
export const joinSections = (...parts: Piece[]): string => parts.filter((s): s is string => typeof s === "string" && s !== "").join("\n\n");
/** Joins sections, dropping empty ones; `gap` puts a blank line between them. */
export const join = (parts: readonly string[], gap = false): string => (gap ? joinSections(...parts) : joinLines(...parts));

/** Joins script sections: a section that opens with a comment gets a blank line before it. */
export function joinGapBeforeComments(sections: readonly string[]): string {
  const out: string[] = [];
  for (const s of sections) {
    if (s.trim() === "") continue;
    if (out.length > 0 && s.startsWith("#")) out.push("");
    out.push(s);
  }
  return out.join("\n");
}

/** Indents every non-empty line of `text` by `n` spaces (sections nested in a loop body). */
export const indent = (text: string, n: number): string =>
  text
    .split("\n")
    .map((l) => (l === "" ? l : " ".repeat(n) + l))
    .join("\n");

/** The text without its blank lines (a section whose optional line was left out). */
export function noBlank(text: string): string {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .join("\n");
}

/** One of `items`, or nothing with probability `1 - p`. */
export const maybe = <T>(rng: Rng, p: number, items: readonly T[]): T | null => (rng.chance(p) ? rng.pick(items) : null);

/** Picks one of several builders and runs it, so only the chosen variant draws randomness. */
export function choose<T>(rng: Rng, variants: readonly (() => T)[]): T {
  return rng.pick(variants)();
}

/** Picks one implementation of a section, with the tools it runs. */
export function variant(rng: Rng, tools: Set<string>, options: readonly (readonly [string, readonly string[]])[]): string {
  const [text, used] = rng.pick(options);
  used.forEach((t) => tools.add(t));
  return text;
}

/** How one seed reports a failed check: if-blocks with echo and exit, or a small die() helper. */
export interface FailStyle {
  /** The helper's definition ("" for the if-block style); it goes right after the declarations. */
  helper: string;
  /** The statements that report `msg` (a double-quoted shell string's content) and stop. */
  call(msg: string): string;
  /** Stops unless `ok` holds; `bad` is the same test negated, for the if-block style. */
  check(ok: string, msg: string, bad?: string): string;
}

export function failStyle(rng: Rng): FailStyle {
  const kind = rng.pick(["if", "if", "die", "fail"] as const);
  if (kind === "if") {
    const call = (msg: string) => `echo "${msg}" >&2\nexit 1`;
    return { helper: "", call, check: (ok, msg, bad) => `if ${bad ?? `! ${ok}`}; then\n${call(msg).replace(/^/gm, "  ")}\nfi` };
  }
  const helper = rng.pick([
    `${kind}() { echo "error: $*" >&2; exit 1; }`,
    `${kind}() {\n  printf '%s\\n' "$*" >&2\n  exit 1\n}`,
    `${kind}() { echo "$(basename "$0"): $*" >&2; exit 1; }`,
  ]);
  const call = (msg: string) => `${kind} "${msg}"`;
  return { helper, call, check: (ok, msg) => `${ok} || ${call(msg)}` };
}

/** `column -t`'s layout: every column but the last padded to its widest cell plus two spaces. */
export function columnT(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd((widths[i] ?? 0) + 2) : c)).join(""));
}
