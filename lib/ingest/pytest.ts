// Per-test results from a verifier's console output, for trials without ctrf.json, and the line
// where each test's outcome is reported, so a test can link into its log.

export interface ParsedTest {
  name: string;
  status: string;
  message: string | null;
}

const OUTCOMES: Record<string, string> = {
  PASSED: "passed",
  FAILED: "failed",
  ERROR: "error",
  SKIPPED: "skipped",
  XFAIL: "xfailed",
  XPASS: "xpassed",
};
const WORDS = Object.keys(OUTCOMES).join("|");
/** `-rA` summary lines: "FAILED tests/test_x.py::test_y - AssertionError: …" */
const SUMMARY = new RegExp(`^(${WORDS}) (\\S+::\\S+)(?: - (.*))?$`);
/** `-v` progress lines: "tests/test_x.py::test_y PASSED   [ 50%]" */
const VERBOSE = new RegExp(`^(\\S+::\\S+) (${WORDS})(?:\\s+\\[\\s*\\d+%\\])?\\s*$`);
/** Failure section headers: "_____ test_y _____" or "___ TestClass.test_y[param] ___" */
const SECTION = /^_{3,} (.+?) _{3,}$/;
const ANSI = /\x1b\[[0-9;]*m/g;

/** A log line without its colours and trailing space. */
const plain = (raw: string): string => (raw.includes("\x1b") ? raw.replace(ANSI, "") : raw).trimEnd();

/**
 * Calls `visit` with each line of `text` (and its 0-based row) whose plain form names a test id
 * (`file::test`) or starts with `___` (a failure section's header), in that plain form. Most lines
 * of a log are neither: they are passed over in the text, without being cut out of it.
 */
export function eachTestLine(text: string, visit: (line: string, row: number) => void): void {
  let colons = text.indexOf("::");
  let escape = text.indexOf("\x1b");
  for (let start = 0, row = 0; start <= text.length; row++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (colons !== -1 && colons < start) colons = text.indexOf("::", start);
    if (escape !== -1 && escape < start) escape = text.indexOf("\x1b", start);
    // Without colours a line's plain form differs only by its trailing space.
    if ((escape !== -1 && escape < end) || (colons !== -1 && colons < end) || text.startsWith("___", start)) {
      const line = plain(text.slice(start, end));
      if (line.startsWith("___") || line.includes("::")) visit(line, row);
    }
    start = end + 1;
  }
}

/** Tests named in pytest's verbose or summary lines; the summary's message wins. */
export function parsePytestOutput(text: string): ParsedTest[] {
  const byName = new Map<string, ParsedTest>();
  eachTestLine(text, (line) => {
    // Both kinds of line name a test id (`file::test`).
    const s = SUMMARY.exec(line);
    if (s) {
      const [, word, name, message] = s as unknown as [string, string, string, string | undefined];
      byName.set(name, { name, status: OUTCOMES[word] ?? word.toLowerCase(), message: message ?? byName.get(name)?.message ?? null });
      return;
    }
    const v = VERBOSE.exec(line);
    if (v) {
      const [, name, word] = v as unknown as [string, string, string];
      if (!byName.has(name)) byName.set(name, { name, status: OUTCOMES[word] ?? word.toLowerCase(), message: null });
    }
  });
  return [...byName.values()];
}

/** The function part of a test id: "tests/t.py::TestA::test_b[1]" → "test_b[1]". */
function shortName(name: string): string {
  const parts = name.split("::");
  return parts[parts.length - 1] ?? name;
}

/**
 * For each test, the 0-based line of `text` where its outcome is reported: the failure section
 * header for a failing test (where the traceback starts), else its summary or verbose line.
 * Absent when the log never names it.
 */
export function locateTests(text: string, tests: { name: string; status: string }[]): (number | null)[] {
  const sections = new Map<string, number>();
  const mentions = new Map<string, number>();
  // A section header starts with `___`, a summary or verbose line names a test id.
  eachTestLine(text, (line, i) => {
    const sec = SECTION.exec(line);
    if (sec?.[1]) {
      const title = sec[1];
      const key = title.includes(".") ? (title.split(".").pop() ?? title) : title;
      if (!sections.has(key)) sections.set(key, i);
      if (!sections.has(title)) sections.set(title, i);
      return;
    }
    const m = SUMMARY.exec(line) ?? VERBOSE.exec(line);
    if (m) {
      const name = m[1] && m[1].includes("::") ? m[1] : (m[2] ?? "");
      // The summary line of a failure beats its progress line: it carries the message.
      if (!mentions.has(name) || SUMMARY.test(line)) mentions.set(name, i);
      const short = shortName(name);
      if (!mentions.has(short) || SUMMARY.test(line)) mentions.set(short, i);
    }
  });
  return tests.map((t) => {
    const short = shortName(t.name);
    const failing = t.status === "failed" || t.status === "error";
    if (failing) {
      const at = sections.get(short) ?? sections.get(t.name);
      if (at !== undefined) return at;
    }
    return mentions.get(t.name) ?? mentions.get(short) ?? null;
  });
}
