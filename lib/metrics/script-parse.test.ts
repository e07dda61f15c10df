// Scripts parsed from the start they share with one read before (./script-parse) read as a whole
// parse does, by every reader; the outlines themselves are tested in ./outlines.test.ts.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { analysePytest, clearPytestReadings } from "@/lib/checks/pytest";
import { analyseShell } from "@/lib/checks/shell";
import { clearShellTreeMemo } from "@/lib/checks/shell-tree";
import { clearShellStatementCache, shellStatementSpans } from "@/lib/diff/bash";
import { BASH_BLOCKS, BASH_LINES, PYTHON_BLOCKS, PYTHON_LINES, random, randomEdit, randomScript } from "@/lib/diff/random-edits";
import type { Outline } from "./outlines";
import { clearPytestStatementMemo, measurePytest, pytestTestNames } from "./pytest";
import { parseCounts, useSharedStarts } from "./script-parse";
import { measureShell } from "./shell";
import { clearBashStatementMemo } from "./shell-tree-sitter";
import { parsedChars, withTreeReuse } from "./tree-sitter";

// What the checks' pytest reading follows across statements: module constants (set, set again,
// built from each other), helpers and fixtures the tests call, paths in commands and listings.
const CHECKED_PYTHON = [
  'OUT = Path("/app") / "out.txt"',
  'BASE = "/srv/data"',
  'BASE = "/srv/other"',
  "DB = os.path.join(BASE, 'app.db')",
  'REPORT = f"{BASE}/report.json"',
  "LOG = OUT",
  'def read_out():\n    return OUT.read_text()',
  'def rows():\n    return sqlite3.connect(DB).execute("select 1").fetchall()',
  '@pytest.fixture\ndef report():\n    return json.loads(Path(REPORT).read_text())',
  "def test_out():\n    assert read_out() == 'ok'",
  "def test_rows():\n    assert len(rows()) == 1\n    assert DB",
  'def test_report(report):\n    assert report["n"] > 0',
  'def test_listing():\n    assert sorted(os.listdir(BASE))\n    subprocess.run(["ls", "/var/log/app"], check=True)',
  'def test_cmd():\n    r = subprocess.run("cat /etc/app.conf | grep key", shell=True)\n    assert r.returncode == 0',
  "class TestLog:\n    def test_log(self):\n        assert Path(LOG).exists()\n        self.assertTrue(LOG)",
];

// Lines tree-sitter-bash glues onto the command before them (lib/metrics/shell-glue), and a
// background job that pulls earlier lines into a pipeline: where a parse from a shared start
// could read differently from a whole one.
const GLUE_PRONE = [
  "cut -d, -f1 /app/in.csv \\\n  | sort \\\n  | uniq -c",
  'jq -r \'.[] | "\\(.a) \\(.b)"\' "$OUT"',
  'diff -rq "$SRC" "$DST" | wc -l',
  "python3 -m http.server 8073 > /dev/null 2>&1 &",
  "\\cp -f /app/a /app/b",
  "pid=$!",
  'wait "$pid" 2>/dev/null || true',
];

// Lines that continue, decorate or close the statement before them, or indent into it: what text
// inserted before a run of the parent's statements, or the rest after it, could join onto its
// neighbours across the run.
const PYTHON_JOINING = [
  "else:\n    pass",
  "elif x:\n    y = 2",
  "except Exception:\n    pass",
  "finally:\n    done()",
  "@pytest.fixture",
  "@pytest.mark.parametrize('v', [1, 2])",
  "    indented = 1",
  "# a comment",
  "if x:\n    y = 1",
  "try:\n    z()",
  "def f(\n    a,",
  '"""an open',
  "import subprocess",
  "from pathlib import Path",
];

/** A child as a lineage step makes a verifier's: a line or a few inserted near the top (an import
 * the new test needs), now and then other edits, and a tail appended. */
function insertNearTop(next: () => number, text: string, vocabulary: readonly string[]): string {
  const lines = text.split("\n");
  const at = Math.floor(next() * Math.min(lines.length, 8));
  lines.splice(at, 0, ...Array.from({ length: 1 + Math.floor(next() * 3) }, () => vocabulary[Math.floor(next() * vocabulary.length)]!));
  const edited = next() < 0.3 ? randomEdit(next, lines.join("\n"), vocabulary) : lines.join("\n");
  return `${edited}\n${randomScript(next, vocabulary, 2 + Math.floor(next() * 8))}`;
}

/**
 * Reads 90 random children with `read`, whole and from the start they share with their parent, and
 * expects the same. The memories are cleared every other case, and `clearReading`'s after the
 * parent's reading every fourth: a statement the readers never saw makes the script be parsed
 * whole again. Returns how many children were parsed from a shared start (not vacuous).
 */
async function compareWithWhole<T>(opts: {
  seed: number;
  vocabularies: readonly (readonly string[])[];
  lines: [number, number];
  read: (text: string) => Promise<T>;
  clearMemories: () => void;
  clearReading: () => void;
  edit?: (next: () => number, parent: string, vocabulary: readonly string[]) => string;
}): Promise<{ fromShared: number; around: number }> {
  const next = random(opts.seed);
  const before = { ...parseCounts };
  for (let k = 0; k < 90; k++) {
    const vocabulary = opts.vocabularies[k % opts.vocabularies.length]!;
    const parent = randomScript(next, vocabulary, opts.lines[0] + Math.floor(next() * opts.lines[1]));
    const child = (opts.edit ?? randomEdit)(next, parent, vocabulary);
    opts.clearMemories();
    useSharedStarts(false);
    const whole = await opts.read(child);
    if (k % 2 === 0) opts.clearMemories();
    useSharedStarts(true);
    let earlier: Outline[] = [];
    await withTreeReuse(() => opts.read(parent), { keep: (outlines) => (earlier = outlines) });
    if (k % 4 === 1) opts.clearReading();
    const shared = await withTreeReuse(() => opts.read(child), { earlier });
    expect(shared, `case ${k}`).toEqual(whole);
  }
  return { fromShared: parseCounts.fromShared - before.fromShared, around: parseCounts.around - before.around };
}

/** Every reader of a solution (metrics, step spans, the checks' reading from `workdir`). */
const readBash = (workdir: string) => async (text: string) => ({
  metrics: await measureShell(text),
  spans: await shellStatementSpans(text),
  checks: await analyseShell(text, { workdir }),
});

/** Every reader of a pytest file (metrics, test names, the checks') and their memories. */
const PYTEST_READERS = {
  read: async (text: string) => ({ metrics: await measurePytest(text), names: await pytestTestNames(text), checks: await analysePytest(text) }),
  clearMemories: () => {
    clearPytestStatementMemo();
    clearPytestReadings();
  },
  clearReading: clearPytestStatementMemo,
};

describe("a script parsed from the start it shares with one read before", () => {
  afterEach(() => useSharedStarts(true));

  it("reads as a whole parse of it does (metrics, step spans, the checks' reading)", async () => {
    const shared = await compareWithWhole({
      seed: 11,
      vocabularies: [BASH_BLOCKS, [...BASH_BLOCKS, ...GLUE_PRONE], [...BASH_LINES, ...GLUE_PRONE]],
      lines: [30, 50],
      read: readBash("/app"),
      clearMemories: () => {
        clearBashStatementMemo();
        clearShellStatementCache();
        clearShellTreeMemo();
      },
      clearReading: clearBashStatementMemo,
    });
    expect(shared.fromShared).toBeGreaterThan(40);
    expect(shared.around).toBe(0);
  });

  it("reads a script its parent had word for word as a whole parse does, glued lines repaired from the parent's repairs", async () => {
    const shared = await compareWithWhole({
      seed: 16,
      vocabularies: [[...BASH_BLOCKS, ...GLUE_PRONE], [...BASH_LINES, ...GLUE_PRONE]],
      lines: [30, 50],
      read: async (text) => ({ metrics: await measureShell(text), spans: await shellStatementSpans(text) }),
      clearMemories: () => {
        clearBashStatementMemo();
        clearShellStatementCache();
      },
      clearReading: clearBashStatementMemo,
      edit: (_next, parent) => parent,
    });
    // The children resume from their parents' repaired texts, the repairs written first (78 here;
    // 110 when the children's texts as given were parsed too, from their first glue on; 85 when a
    // text equal to an earlier one was parsed whole).
    expect(shared.fromShared).toBeGreaterThan(70);
  });

  it("takes a parent's repairs on the lines it shares: a glued line's descendants parse only what they add", async () => {
    // A generated solution on which tree-sitter-bash glues lines (./shell-fallback.test.ts), and
    // two generations after it, each appending a step.
    const fixture = fs.readFileSync(path.join(import.meta.dirname, "fixtures", "glued-pipeline.sh"), "utf8");
    const step = (n: number) => `\n# Step ${n}: archive the report.\nmkdir -p /app/archive-${n}\ntar -czf /app/archive-${n}/report.tgz -C /app report.txt\nls -l /app/archive-${n} | wc -l\n`;
    const parent = `${fixture}${step(1)}`;
    const child = `${parent}${step(2)}`;
    const grandchild = `${child}${step(3)}`;
    const read = readBash("/app");
    clearBashStatementMemo();
    clearShellStatementCache();
    clearShellTreeMemo();
    let earlier: Outline[] = [];
    const again = parseCounts.wholeAgain;
    await withTreeReuse(() => read(parent), { keep: (outlines) => (earlier = outlines) });
    // Each reader took the same path to the repaired text (the first one's repairs are not taken
    // by the others: their memories would lack the statements it read in the text as given).
    expect(parseCounts.wholeAgain - again).toBe(0);
    // The parent needed a repair (else this test shows nothing), well before its end.
    const repaired = earlier.find((o) => o.inserted !== undefined);
    expect(repaired?.inserted?.[0]).toBeLessThan(parent.length - 3 * step(2).length);
    for (const text of [child, grandchild]) {
      const before = parsedChars.bash;
      const again = parseCounts.wholeAgain;
      const shared = await withTreeReuse(() => read(text), { earlier, keep: (outlines) => (earlier = outlines) });
      // Without the repairs taken, the text as given is parsed from the parent's first glue on.
      expect(parsedChars.bash - before).toBeLessThan(3 * step(2).length);
      // Every reader knew the statements taken from the parent's outline: none parsed it again.
      expect(parseCounts.wholeAgain - again).toBe(0);
      useSharedStarts(false);
      expect(shared).toEqual(await read(text));
      useSharedStarts(true);
    }
  });

  // Found at paper scale (session 41): a generated seed and its child, whose new step
  // `find … \⏎  | sort -z \⏎  | xargs -0 sha512sum > …` tree-sitter-bash nests one way in a whole
  // parse (the redirect on `sort | xargs`, from line 61) and another when the parse starts at the
  // statement boundary the child shares with its parent (on the whole pipeline, from line 60): the
  // checks' artifact said line 61 or 60 depending on how the child was read.
  it("reads a generated child as a whole parse does where tree-sitter nests a pipeline by where its parse started", async () => {
    const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");
    const read = readBash("/opt/backup");
    const child = fixture("nesting-child.sh");
    useSharedStarts(false);
    const whole = await read(child);
    useSharedStarts(true);
    let earlier: Outline[] = [];
    await withTreeReuse(() => read(fixture("nesting-parent.sh")), { keep: (outlines) => (earlier = outlines) });
    expect(await withTreeReuse(() => read(child), { earlier })).toEqual(whole);
  });

  it("reads a pytest file as a whole parse of it does", async () => {
    const shared = await compareWithWhole({
      seed: 12,
      vocabularies: [PYTHON_BLOCKS, PYTHON_LINES],
      lines: [60, 60],
      ...PYTEST_READERS,
    });
    expect(shared.fromShared).toBeGreaterThan(15);
  });

  it("reads a pytest file's constants, helpers and paths as a whole parse does, a constant changed or added anywhere", async () => {
    const shared = await compareWithWhole({
      seed: 13,
      vocabularies: [CHECKED_PYTHON, [...CHECKED_PYTHON, ...PYTHON_BLOCKS]],
      lines: [40, 40],
      read: (text) => analysePytest(text),
      clearMemories: clearPytestReadings,
      clearReading: clearPytestReadings,
    });
    expect(shared.fromShared).toBeGreaterThan(15);
  });

  it("reads a pytest file with lines inserted near its top as a whole parse does, parsed around the parent's statements", async () => {
    for (const seed of [14, 15]) {
      const counts = await compareWithWhole({
        seed,
        vocabularies: [[...CHECKED_PYTHON, ...PYTHON_BLOCKS], [...PYTHON_BLOCKS, ...PYTHON_JOINING], [...PYTHON_LINES, ...PYTHON_JOINING]],
        lines: [40, 40],
        ...PYTEST_READERS,
        edit: insertNearTop,
      });
      expect(counts.around, `seed ${seed}`).toBeGreaterThan(10);
    }
  });
});
