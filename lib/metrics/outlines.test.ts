import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { analysePytest, clearPytestReadings } from "@/lib/checks/pytest";
import { analyseShell } from "@/lib/checks/shell";
import { clearShellTreeMemo } from "@/lib/checks/shell-tree";
import { clearShellStatementCache, shellStatementSpans } from "@/lib/diff/bash";
import { BASH_BLOCKS, BASH_LINES, PYTHON_BLOCKS, PYTHON_LINES, random, randomEdit, randomScript } from "@/lib/diff/random-edits";
import { commonPrefix, entriesOf, outlineOf, sharedAround, sharedStart, type Outline, type TopEntry } from "./outlines";
import { clearPytestStatementMemo, measurePytest, pytestTestNames } from "./pytest";
import { measureShell } from "./shell";
import { clearBashStatementMemo } from "./shell-tree-sitter";
import { parseCounts, useSharedStarts } from "./script-parse";
import { parsedChars, withTreeReuse } from "./tree-sitter";

const entry = (startIndex: number, endIndex: number, startRow: number, type = "command"): TopEntry => ({ type, isNamed: true, startIndex, endIndex, startRow });

/** A script of `n` one-line commands, and its outline as a parse would give it. */
function lines(n: number, prefix = "echo line"): { text: string; entries: TopEntry[] } {
  const entries: TopEntry[] = [];
  let text = "";
  for (let i = 0; i < n; i++) {
    const line = `${prefix} ${String(i).padStart(4, "0")} with some words to make it longer`;
    entries.push(entry(text.length, text.length + line.length, i));
    text += `${line}\n`;
  }
  return { text, entries };
}

describe("sharedStart", () => {
  const outline = (grammar: "bash" | "python", script: { text: string; entries: TopEntry[] }, confirmedUpTo = script.text.length): Outline =>
    outlineOf(grammar, script.text, script.entries, confirmedUpTo);

  it("resumes at the last statement start the two scripts share, within what was confirmed", () => {
    const parent = lines(40);
    const earlier = [outline("bash", parent)];
    // The child changes line 30: the parse resumes at line 30's start, after 30 entries.
    const at30 = parent.entries[30]!.startIndex;
    const child = `${parent.text.slice(0, at30)}rm -rf /tmp/x\n${parent.text.slice(parent.entries[31]!.startIndex)}`;
    expect(sharedStart("bash", child, earlier)).toEqual({ at: at30, row: 30, entries: parent.entries.slice(0, 30) });
    // A change inside line 30 still resumes at its start; one inside line 12, at line 12.
    expect(sharedStart("bash", `${parent.text.slice(0, at30 + 5)}X${parent.text.slice(at30 + 5)}`, earlier)?.at).toBe(at30);
    const at12 = parent.entries[12]!.startIndex;
    expect(sharedStart("bash", `${parent.text.slice(0, at12 + 3)}X${parent.text.slice(at12 + 3)}`, earlier)?.row).toBe(12);
    // Only up to what the readers confirmed (for bash: before the first glued line).
    expect(sharedStart("bash", child, [outline("bash", parent, parent.entries[20]!.startIndex)])?.row).toBe(20);
    // The latest of several; never one of another grammar.
    expect(sharedStart("bash", child, [outline("bash", parent, parent.entries[20]!.startIndex), ...earlier])?.row).toBe(30);
    expect(sharedStart("bash", child, [outline("python", parent)])).toBeNull();
  });

  it("resumes the same script at its last statement (a helper a child keeps as it was)", () => {
    const parent = lines(40);
    expect(sharedStart("bash", parent.text, [outline("bash", parent)])).toEqual({ at: parent.entries[39]!.startIndex, row: 39, entries: parent.entries.slice(0, 39) });
    expect(sharedStart("bash", parent.text, [outline("bash", parent, parent.entries[20]!.startIndex)])?.row).toBe(20);
  });

  it("never resumes where the next character would continue the statement before", () => {
    const parent = lines(30);
    const earlier = [outline("bash", parent)];
    const at = parent.entries[25]!.startIndex;
    for (const start of ["| sort", "&& true", "} ", ") ", "\\cp -f a b", " indented", "; x", "> out"]) {
      const found = sharedStart("bash", `${parent.text.slice(0, at)}${start}\n`, earlier);
      // It falls back to an earlier boundary, never this one.
      expect(found?.at, start).toBeLessThan(at);
    }
    expect(sharedStart("bash", `${parent.text.slice(0, at)}echo fine\n`, earlier)?.at).toBe(at);
  });

  it("needs a line start after whitespace only, a long enough shared start, and the script's outline", () => {
    const parent = lines(30);
    // Line 20's statement does not start its line (`a; b` on one line): no boundary there.
    const entries = parent.entries.map((e, i) => (i === 20 ? { ...e, startIndex: e.startIndex + 1 } : e));
    const earlier = [outline("bash", { text: parent.text, entries })];
    const at20 = parent.entries[20]!.startIndex;
    const child = `${parent.text.slice(0, at20 + 2)}X${parent.text.slice(at20 + 2)}`;
    expect(sharedStart("bash", child, earlier)?.row).toBe(19);
    // Too little shared; another script.
    expect(sharedStart("bash", `X${parent.text}`, earlier)).toBeNull();
    expect(sharedStart("bash", child, [outline("bash", lines(30, "printf row"))])).toBeNull();
    const short = lines(3);
    expect(sharedStart("bash", `${short.text}echo more\n`, [outline("bash", short)])).toBeNull();
  });

  it("does not resume a Python file at a comment or an indented line", () => {
    const parent = lines(30, "x = 'line'  #");
    const earlier = [outline("python", parent)];
    const at = parent.entries[25]!.startIndex;
    expect(sharedStart("python", `${parent.text.slice(0, at)}# a comment\n`, earlier)?.at).toBeLessThan(at);
    expect(sharedStart("python", `${parent.text.slice(0, at)}    y = 1\n`, earlier)?.at).toBeLessThan(at);
    expect(sharedStart("python", `${parent.text.slice(0, at)}def test_x():\n    pass\n`, earlier)?.at).toBe(at);
  });
});

describe("sharedAround", () => {
  const parent = lines(40, "x = 'line'  #");
  const earlier = [outlineOf("python", parent.text, parent.entries, parent.text.length)];
  const at3 = parent.entries[3]!.startIndex;
  const inserted = "import subprocess\n";
  const tail = "def test_new():\n    assert True\n";
  const child = `${parent.text.slice(0, at3)}${inserted}${parent.text.slice(at3)}${tail}`;

  it("finds the run of the parent's statements after a line inserted near the top", () => {
    const shift = inserted.length;
    const last = parent.entries[39]!;
    expect(sharedAround("python", child, earlier, sharedStart("python", child, earlier))).toEqual({
      head: { at: at3, row: 3, entries: parent.entries.slice(0, 3) },
      from: at3 + shift,
      fromRow: 4,
      // The run ends before the parent's last statement, so that the rest has a statement start.
      to: last.startIndex + shift,
      toRow: 40,
      entries: parent.entries.slice(3, 39).map((e) => ({ ...e, startIndex: e.startIndex + shift, endIndex: e.endIndex + shift, startRow: e.startRow + 1 })),
    });
  });

  it("only for Python, and only when it saves more than a shared start does", () => {
    expect(sharedAround("bash", child, [outlineOf("bash", parent.text, parent.entries, parent.text.length)], null)).toBeNull();
    const appended = `${parent.text}${tail}`;
    expect(sharedAround("python", appended, earlier, sharedStart("python", appended, earlier))).toBeNull();
    // The run must resume at a statement start: not after an indented line joined onto it.
    const joined = `${parent.text.slice(0, at3)}if x:\n    ${parent.text.slice(at3)}`;
    expect(sharedAround("python", joined, earlier, null)?.from).not.toBe(at3 + "if x:\n    ".length);
  });
});

describe("outlineOf", () => {
  it("packs a script's top-level children and gives them back", () => {
    const entries = [entry(0, 10, 0), { type: "&", isNamed: false, startIndex: 11, endIndex: 12, startRow: 0 }, entry(13, 40, 1, "comment"), entry(41, 90, 2, "if_statement")];
    const packed = outlineOf("bash", "x".repeat(100), entries, 50);
    expect(entriesOf(packed, 4)).toEqual(entries);
    expect(entriesOf(packed, 2)).toEqual(entries.slice(0, 2));
    expect(packed.confirmedUpTo).toBe(50);
  });

  it("keeps the statements' keys, so that a script resuming from it takes the same strings", () => {
    const parent = lines(40);
    const keyed = parent.entries.map((e) => ({ ...e, key: `command\u0000${parent.text.slice(e.startIndex, e.endIndex)}` }));
    const earlier = [outlineOf("bash", parent.text, keyed, parent.text.length)];
    const at30 = parent.entries[30]!.startIndex;
    const shared = sharedStart("bash", `${parent.text.slice(0, at30)}rm -rf /tmp/x\n`, earlier);
    expect(shared?.entries.map((e) => e.key)).toEqual(keyed.slice(0, 30).map((e) => e.key));
    expect(shared?.entries[29]?.key).toBe(earlier[0]!.keys[29]);
  });
});

describe("commonPrefix", () => {
  it("is the length of the common start", () => {
    const next = random(9);
    for (let k = 0; k < 300; k++) {
      const base = Array.from({ length: Math.floor(next() * 500) }, () => "ab\n🙂"[Math.floor(next() * 4)]).join("");
      const cut = Math.floor(next() * (base.length + 1));
      const other = `${base.slice(0, cut)}${next() < 0.5 ? "Z" : ""}${base.slice(cut, cut + Math.floor(next() * 10))}`;
      let expected = 0;
      while (expected < Math.min(base.length, other.length) && base[expected] === other[expected]) expected++;
      expect(commonPrefix(base, other)).toBe(expected);
    }
  });
});

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
