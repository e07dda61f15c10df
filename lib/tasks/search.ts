/** Words of code and prose alike: paths, flags and file names split into their parts, so the
 * index and the query agree ("out-2.txt" is the phrase out 2 txt). */
export function searchWords(text: string): string {
  return text.replace(/[^\p{L}\p{N}_]+/gu, " ").trim();
}

/** The files of a task the search covers: instruction, solution and verifier (db/queries/task-snippets.ts
 * selects the same in SQL). */
export function isSearchedFile(path: string): boolean {
  return path === "instruction.md" || path.startsWith("solution/") || path.startsWith("tests/") || path === "solution.sh" || path === "run-tests.sh";
}

/**
 * The terms of a search box query, each a run of words that must appear in that order: a
 * "quoted part" is one term (an exact phrase), and every other whitespace-separated token is a
 * term of its own parts (`out-2.txt` → "out 2 txt"). All terms must match, anywhere in the task.
 * So `sqlite3 crontab` finds tasks using both, while `"set -euo pipefail"` wants the phrase.
 */
export function searchTerms(q: string): string[] {
  const terms: string[] = [];
  const quoted = /"([^"]*)"/g;
  let rest = q;
  for (const m of q.matchAll(quoted)) terms.push(searchWords(m[1] ?? ""));
  rest = q.replace(quoted, " ").replace(/"/g, " ");
  for (const token of rest.split(/\s+/)) terms.push(searchWords(token));
  return [...new Set(terms.filter((t) => t !== ""))];
}

/**
 * Whether matching `terms` needs word positions, i.e. some term is more than one word as
 * PostgreSQL's parser reads it. A run of ASCII letters and digits is one word, unless it starts
 * like a number in scientific notation (`1e5x` is two); anything else (several words, `_`, other
 * letters) counts as a phrase, which is always correct, only slower to check.
 */
export function needsPositions(terms: string[]): boolean {
  return terms.some((t) => !/^[A-Za-z0-9]+$/.test(t) || /^[0-9]+e[0-9]/i.test(t));
}
