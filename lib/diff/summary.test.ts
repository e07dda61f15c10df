import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Readings, readForSteps, type StoredReading } from "@/lib/checks/readings";
import { measurePytest } from "@/lib/metrics/pytest";
import { withTreeReuse } from "@/lib/metrics/tree-sitter";
import { shellStatements, shellStatementSpans, shellStatementsFromSpans } from "./bash";
import { BASH_BLOCKS, PYTHON_BLOCKS, random, randomEdit, randomScript } from "./random-edits";
import { clearSummaryCaches, sequenceSummary, stepSummary, type StepReadings } from "./summary";
import { newUnits } from "./units";

// A realistic lineage step: the child adds a database snapshot (heredoc), an archive, a test for the
// archive and a sentence asking for it. It also rewords a comment, re-wraps a command and reorders
// the instruction's sentences — none of which may be reported.
const parent = {
  "solution/solve.sh": `#!/bin/bash
set -euo pipefail
# prepare the backup directory
mkdir -p /app/backup
cp -a /app/data.db /app/backup/data.db
for f in /app/conf/*.ini; do
  cp "$f" /app/backup/
done
`,
  "tests/test_outputs.py": `import os
import tarfile


def test_backup_dir_exists():
    assert os.path.isdir("/app/backup")


class TestCopy:
    def test_db_copied(self):
        assert os.path.exists("/app/backup/data.db")
`,
  "instruction.md": `# Backup

Create the directory \`/app/backup\`. Copy \`/app/data.db\` into it, keeping its modes.

- Copy every \`.ini\` file from \`/app/conf\` as well.
`,
  "task.toml": 'version = "1.0"\n',
};

const child = {
  "solution/solve.sh": `#!/bin/bash
set -euo pipefail
# create the directory that will hold the backup
mkdir -p /app/backup
cp -a /app/data.db \\
   /app/backup/data.db
for f in /app/conf/*.ini; do
  # one by one
  cp "$f" /app/backup/
done
sqlite3 /app/backup/data.db <<'SQL'
CREATE TABLE IF NOT EXISTS backup_log(taken_at TEXT);
INSERT INTO backup_log VALUES (datetime('now'));
SQL
tar czf /app/backup/archive.tgz -C /app backup   # the archive
`,
  "tests/test_outputs.py": `import os
import tarfile


def test_backup_dir_exists():
    assert os.path.isdir("/app/backup")


class TestCopy:
    def test_db_copied(self):
        assert os.path.exists("/app/backup/data.db")


def test_backup_archive():
    with tarfile.open("/app/backup/archive.tgz") as tar:
        assert "backup/data.db" in tar.getnames()
`,
  "instruction.md": `# Backup

Copy \`/app/data.db\` into it, keeping its modes. Create the directory
\`/app/backup\`.

- Copy every \`.ini\` file from \`/app/conf\` as well.
- Finally, pack \`/app/backup\` into \`/app/backup/archive.tgz\`.
`,
  "task.toml": 'version = "1.0"\n',
};

describe("stepSummary", () => {
  it("reports what the child adds: the heredoc step, the tar line, the new test, the new sentence", async () => {
    const s = await stepSummary(parent, child);
    expect(s).toEqual({
      commands: [
        "sqlite3 /app/backup/data.db <<'SQL'\nCREATE TABLE IF NOT EXISTS backup_log(taken_at TEXT);\nINSERT INTO backup_log VALUES (datetime('now'));\nSQL",
        "tar czf /app/backup/archive.tgz -C /app backup",
      ],
      removedCommands: [],
      tests: ["test_backup_archive"],
      removedTests: [],
      sentences: ["Finally, pack `/app/backup` into `/app/backup/archive.tgz`."],
      removedSentences: [],
      commandParser: "tree-sitter-bash",
    });
  });

  it("reports nothing for a reordered sentence, a changed comment or a re-wrapped command", async () => {
    const reworded = {
      ...parent,
      "solution/solve.sh": parent["solution/solve.sh"].replace("# prepare the backup directory", "# the directory for backups").replace(
        "cp -a /app/data.db /app/backup/data.db",
        "cp -a /app/data.db \\\n  /app/backup/data.db   # copy",
      ),
      "instruction.md": "# Backup\n\n- Copy every `.ini` file from `/app/conf` as well.\n\nCopy `/app/data.db` into it, keeping its modes.\nCreate the directory `/app/backup`.\n",
    };
    const s = await stepSummary(parent, reworded);
    expect([s.commands, s.removedCommands, s.tests, s.removedTests, s.sentences, s.removedSentences]).toEqual([[], [], [], [], [], []]);
    const crlf = Object.fromEntries(Object.entries(parent).map(([p, t]) => [p, t.replace(/\n/g, "\r\n")]));
    const same = await stepSummary(parent, crlf);
    expect([same.commands, same.tests, same.sentences]).toEqual([[], [], []]);
  });

  it("reports removals, class tests with their class, and duplicated commands once per extra copy", async () => {
    const s = await stepSummary(child, {
      "solution/solve.sh": "mkdir -p /app/backup\nmkdir -p /app/backup\n",
      "tests/test_outputs.py": "class TestCopy:\n    def test_db_copied(self):\n        pass\n    def test_modes(self):\n        pass\n",
      "instruction.md": "Create the directory `/app/backup`.",
    });
    expect(s.commands).toEqual(["mkdir -p /app/backup"]);
    expect(s.removedCommands).toHaveLength(5);
    expect(s.tests).toEqual(["TestCopy::test_modes"]);
    expect(s.removedTests).toEqual(["test_backup_dir_exists", "test_backup_archive"]);
    expect(s.sentences).toEqual([]);
    expect(s.removedSentences).toContain("Backup");
  });

  it("names the file of a test when several test files exist", async () => {
    const s = await stepSummary(
      { "tests/test_outputs.py": "def test_a():\n    pass\n" },
      { "tests/test_outputs.py": "def test_a():\n    pass\n", "tests/test_more.py": "def test_a():\n    pass\n" },
    );
    expect(s.tests).toEqual(["test_more.py::test_a"]);
  });

  it("falls back to lines when a script does not parse, on both sides alike", async () => {
    expect(await shellStatements("if true; then\n  echo broken\n")).toBeNull();
    const s = await stepSummary(
      { "solution/solve.sh": "echo a\nif true; then\n" },
      { "solution/solve.sh": "echo a\n# note\nif true; then\ntar czf x.tgz \\\n  dir\n" },
    );
    expect(s.commandParser).toBe("lines");
    expect(s.commands).toEqual(["tar czf x.tgz dir"]);
  });

  it("treats a missing side as empty", async () => {
    const s = await stepSummary({}, { "solution/solve.sh": "echo hi\n", "instruction.md": "Say hi." });
    expect(s.commands).toEqual(["echo hi"]);
    expect(s.sentences).toEqual(["Say hi."]);
    const none = await stepSummary({}, {});
    expect(none.commands).toEqual([]);
  });
});

describe("shellStatements", () => {
  it("gives top-level statements with comments out and continuations joined", async () => {
    const units = await shellStatements("a=1; echo \"$a\" \\\n  | tr a b & # bg\nf() {\n  # inside\n  echo x\n}\nsleep 1 &\n");
    expect(units?.map((u) => u.text)).toEqual(["a=1", 'echo "$a" | tr a b &', "f() {\n  echo x\n}", "sleep 1 &"]);
  });

  it("keeps statements tree-sitter glues onto a `\\`-continued pipeline apart, stored spans too", async () => {
    // A generated solution on which tree-sitter-bash runs `uniq -c` on into the next two lines
    // (lib/metrics/shell-fallback.test.ts): each line is a statement of its own.
    const script = fs.readFileSync(path.join(import.meta.dirname, "../metrics/fixtures/glued-pipeline.sh"), "utf8");
    const texts = (await shellStatements(script))?.map((u) => u.text) ?? [];
    expect(texts).toContain(`jq -r '.[].file' "$OUT" | sort | uniq -c`);
    expect(texts).toContain(`jq -r 'group_by(.kind)[] | "\\(.[0].kind) \\(length)"' "$OUT"`);
    expect(texts).toContain(`diff -rq "$SRC" "$REDACTED" | wc -l`);
    expect(texts.filter((t) => t.includes("uniq -c\n"))).toEqual([]);
    expect(shellStatementsFromSpans(script, await shellStatementSpans(script))?.map((u) => u.text)).toEqual(texts);
  });
});

describe("sequenceSummary", () => {
  it("summarizes each step from the seed down, and the chain as one step", async () => {
    const grandchild = {
      ...child,
      "solution/solve.sh": `${child["solution/solve.sh"]}sha256sum /app/backup/archive.tgz > /app/backup/archive.sha256\n`,
    };
    const seq = await sequenceSummary([
      { id: "seed", files: parent },
      { id: "r1", files: child },
      { id: "r2", files: grandchild },
    ]);
    expect(seq.steps.map((s) => [s.from, s.to, s.summary.commands.length, s.counts.modified])).toEqual([
      ["seed", "r1", 2, 3],
      ["r1", "r2", 1, 1],
    ]);
    expect(seq.steps[1]!.summary.commands).toEqual(["sha256sum /app/backup/archive.tgz > /app/backup/archive.sha256"]);
    expect(seq.total?.summary.commands).toHaveLength(3);
    expect(seq.total?.summary.tests).toEqual(["test_backup_archive"]);
    expect(await sequenceSummary([{ id: "seed", files: parent }])).toEqual({ steps: [], total: null });
  });

  it("reads what the import stored of each link: the same steps, and a doctored reading shows", async () => {
    const refs = (files: Record<string, string>) =>
      Object.entries(files).map(([path, text]) => ({ path, text, hash: createHash("sha256").update(text).digest("hex") }));
    const links = [
      { id: "seed", files: parent },
      { id: "r1", files: child },
    ];
    const readings = Readings.of(JSON.parse(JSON.stringify([...(await readForSteps(refs(parent))), ...(await readForSteps(refs(child)))])) as StoredReading[]);
    clearSummaryCaches();
    const parsed = await sequenceSummary(links);
    clearSummaryCaches();
    expect(await sequenceSummary(links.map((l) => ({ ...l, readings: readings.forSteps(refs(l.files)) })))).toEqual(parsed);
    const doctored = await sequenceSummary([links[0]!, { ...links[1]!, readings: { tests: { "tests/test_outputs.py": ["test_doctored"] } } }]);
    expect(doctored.steps[0]!.summary.tests).toEqual(["test_doctored"]);
    expect(doctored.total?.summary.tests).toEqual(["test_doctored"]);
  });
});

describe("stepSummary parses the child from the parent's trees", () => {
  it("reads the same statements and tests as fresh parses of each side", async () => {
    const next = random(12);
    for (let k = 0; k < 40; k++) {
      const bash = randomScript(next, BASH_BLOCKS, 10 + Math.floor(next() * 50));
      const python = randomScript(next, PYTHON_BLOCKS, 5 + Math.floor(next() * 20));
      const parent = { "solution/solve.sh": bash, "tests/test_outputs.py": python };
      const child = { "solution/solve.sh": randomEdit(next, bash, BASH_BLOCKS), "tests/test_outputs.py": randomEdit(next, python, PYTHON_BLOCKS) };
      clearSummaryCaches();
      const fresh = {
        statements: [await shellStatements(parent["solution/solve.sh"]), await shellStatements(child["solution/solve.sh"])],
        pytest: [await measurePytest(parent["tests/test_outputs.py"]), await measurePytest(child["tests/test_outputs.py"])],
      };
      clearSummaryCaches();
      const reused = await withTreeReuse(async () => ({
        statements: [await shellStatements(parent["solution/solve.sh"]), await shellStatements(child["solution/solve.sh"])],
        pytest: [await measurePytest(parent["tests/test_outputs.py"]), await measurePytest(child["tests/test_outputs.py"])],
      }));
      expect(reused, `case ${k}`).toEqual(fresh);
      clearSummaryCaches();
      const summary = await stepSummary(parent, child);
      expect(summary.commandParser, `case ${k}`).toBe(fresh.statements.every((s) => s !== null) ? "tree-sitter-bash" : "lines");
      if (fresh.statements[0] && fresh.statements[1]) {
        expect(summary.commands, `case ${k}`).toEqual(newUnits(fresh.statements[0], fresh.statements[1]));
      }
      expect(summary.tests, `case ${k}`).toEqual(newUnits(fresh.pytest[0]!.testNames.map((n) => ({ key: `tests/test_outputs.py::${n}`, text: n })), fresh.pytest[1]!.testNames.map((n) => ({ key: `tests/test_outputs.py::${n}`, text: n })), true));
    }
  });
});

describe("stepSummary with what the import read (lib/checks/readings)", () => {
  const refs = (files: Record<string, string>) =>
    Object.entries(files).map(([path, text]) => ({ path, text, hash: createHash("sha256").update(text).digest("hex") }));

  it("gives what parsing gives, with readings of both sides, of one side, or of some files", async () => {
    const next = random(21);
    let parsedByTree = 0;
    for (let k = 0; k < 24; k++) {
      const bash = randomScript(next, BASH_BLOCKS, 10 + Math.floor(next() * 50));
      const python = randomScript(next, PYTHON_BLOCKS, 5 + Math.floor(next() * 20));
      const parent: Record<string, string> = { "solution/solve.sh": bash, "tests/test_outputs.py": python, "instruction.md": "Do it." };
      const child: Record<string, string> = {
        "solution/solve.sh": randomEdit(next, bash, BASH_BLOCKS),
        "tests/test_outputs.py": randomEdit(next, python, PYTHON_BLOCKS),
        "instruction.md": "Do it. Then more.",
      };
      if (k % 3 === 0) child["tests/test_more.py"] = randomScript(next, PYTHON_BLOCKS, 5);
      if (k % 4 === 1) child["solution/solve.sh"] += "\nif true; then\n  echo broken\n"; // a syntax error: lines on both sides
      // As stored: JSON in the database.
      const stored = JSON.parse(JSON.stringify([...(await readForSteps(refs(parent))), ...(await readForSteps(refs(child)))])) as StoredReading[];
      const readings = Readings.of(stored);
      const both: StepReadings = { parent: readings.forSteps(refs(parent)), child: readings.forSteps(refs(child)) };
      if (k % 4 === 1) expect(both.child?.statements, `case ${k}`).toBeNull();
      else parsedByTree += both.parent?.statements && both.child?.statements ? 1 : 0;
      const some = Readings.of(stored.filter((r) => !(r.reader.startsWith("steps-pytest") && k % 2 === 0) && !(r.reader.startsWith("steps-shell") && k % 2 === 1)));
      clearSummaryCaches();
      const parsed = await stepSummary(parent, child);
      for (const known of [both, { parent: both.parent }, { child: both.child }, { parent: some.forSteps(refs(parent)), child: some.forSteps(refs(child)) }]) {
        clearSummaryCaches();
        expect(await stepSummary(parent, child, known), `case ${k}`).toEqual(parsed);
      }
    }
    expect(parsedByTree).toBeGreaterThan(8);
  });

  it("reads a file's reading, not the file: a doctored reading shows", async () => {
    const known: StepReadings = {
      // The child's script as one statement from its first character to its last.
      child: { statements: [[0, child["solution/solve.sh"].length]], tests: { "tests/test_outputs.py": ["test_doctored", "test_backup_archive"] } },
    };
    const s = await stepSummary(parent, child, known);
    expect(s.commands).toEqual([expect.stringMatching(/^#!\/bin\/bash\nset -euo pipefail\n# create the directory/)]);
    expect(s.tests).toEqual(["test_doctored", "test_backup_archive"]);
    // A reading of a syntax error: both sides compared by lines.
    expect((await stepSummary(parent, child, { parent: { statements: null } })).commandParser).toBe("lines");
  });
});
