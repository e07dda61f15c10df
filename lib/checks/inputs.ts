// What the checks are given of a task's files and trials, the same whether they come from the
// database (db/queries/checks.ts, after an import) or straight from the import's reading
// (./import-checks.ts): the rules must find the same either way.
import type { CheckKind } from "@/lib/domain";

/** Files larger than this are data, not text a requirement could be told in: given by path only. */
export const MAX_TEXT_FILE = 256 * 1024;

/** The longest exception message and test message (in characters) the rules are given. */
export const TRIAL_MESSAGE_CHARS = 400;
export const TEST_MESSAGE_CHARS = 300;

/** Whether the checks read a file of a task: the instruction, the solution and the verifier, and
 * the environment of a task being checked (not of its parent). */
export function checkedPath(path: string, asParent: boolean): boolean {
  return path === "instruction.md" || path.startsWith("solution/") || path.startsWith("tests/") || (!asParent && path.startsWith("environment/"));
}

/** Whether a file's text is given to the rules: UTF-8, not too large, and no solution file other
 * than solve.sh (the others are told by being there). */
export function checkedText(path: string, file: { encoding: string; size: number }): boolean {
  return file.encoding === "utf8" && file.size <= MAX_TEXT_FILE && (!path.startsWith("solution/") || path === "solution/solve.sh");
}

/**
 * Whether a trial's verdict is not what its check expects (an oracle or a repeat that did not pass,
 * a no-op or the parent's solution that did, no reward): only such a trial's tests and logs are
 * given to the rules, the only ones a finding points into. At paper scale the others hold most of
 * the two million test rows.
 */
export function unexpectedVerdict(t: { check: CheckKind; reward: number | null }): boolean {
  if (t.reward === null) return true;
  if (t.check === "oracle" || t.check === "repeat") return t.reward < 1;
  if (t.check === "nop" || t.check === "parent-solution") return t.reward > 0;
  return false;
}

/** The first `n` characters (code points, as PostgreSQL's `left`) of `s`. */
export function leftChars(s: string, n: number): string {
  if (s.length <= n) return s;
  let out = "";
  let count = 0;
  for (const ch of s) {
    if (count === n) break;
    out += ch;
    count++;
  }
  return out;
}
