import { describe, expect, it } from "vitest";
import { flakyVerifier } from "./rules/flaky-verifier";
import { instructionNotUpdated } from "./rules/instruction-not-updated";
import { missingValidation } from "./rules/missing-validation";
import { noReward } from "./rules/no-reward";
import { nopPasses } from "./rules/nop-passes";
import { oracleFails } from "./rules/oracle-fails";
import { parentSolutionPasses } from "./rules/parent-solution-passes";
import { untoldRequirement } from "./rules/untold-requirement";
import { unverifiedStep } from "./rules/unverified-step";
import { verifierNotUpdated } from "./rules/verifier-not-updated";
import { weakenedVerifier } from "./rules/weakened-verifier";
import { analysed, input, trial } from "./testing";

// A parent task in a shape the generator never writes: two test files, pathlib, a module
// constant built with `/`, a fixture, and a solution with a function, a heredoc and variables.
const PARENT = {
  "instruction.md": "Write the per-user report to `/srv/app/out/report.csv` (columns user,total).\n",
  "environment/Dockerfile": "FROM ubuntu:24.04\nWORKDIR /srv/app\nCOPY data.csv /srv/app/data.csv\n",
  "solution/solve.sh": `#!/bin/bash
set -euo pipefail
OUT=/srv/app/out
make_report() {
  mkdir -p "$OUT"
  awk -F, 'NR>1{t[$1]+=$2} END{for(u in t) print u","t[u]}' /srv/app/data.csv > "$OUT/report.csv"
}
make_report
`,
  "tests/test.sh": "#!/bin/bash\npytest /tests -rA\n",
  "tests/conftest.py": `import pytest
from pathlib import Path

@pytest.fixture
def report():
    return Path("/srv/app/out/report.csv").read_text()
`,
  "tests/test_report.py": `from pathlib import Path
BASE = Path("/srv/app")
OUT = BASE / "out"

def test_report_exists():
    assert (OUT / "report.csv").is_file()

def test_report_rows(report):
    rows = report.splitlines()
    assert rows
    assert all("," in r for r in rows)
`,
};

function child(overrides: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = { ...PARENT };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

const NEW_STEP = `
# archive the report
ARCHIVE_DIR=/srv/app/archive
install -d "$ARCHIVE_DIR"
tar -czf "$ARCHIVE_DIR/report.tar.gz" -C /srv/app/out report.csv
cat > "$ARCHIVE_DIR/MANIFEST" <<'EOF'
report.csv
EOF
`;

const NEW_TEST = `

def test_archive():
    import subprocess
    r = subprocess.run(["tar", "-tzf", "/srv/app/archive/report.tar.gz"], capture_output=True, text=True)
    assert "report.csv" in r.stdout
`;

describe("trial rules", () => {
  it("oracle-fails: no oracle run earned full reward; points at the failing test's log line", async () => {
    const t = await analysed(1, PARENT);
    const failing = trial("oracle", 0, { tests: [{ name: "tests/test_report.py::test_report_rows", status: "failed", message: "AssertionError", logName: "verifier/test-stdout.txt", logLine: 41 }] });
    const [f] = oracleFails(input(t, null, [failing]));
    expect(f?.rule).toBe("oracle-fails");
    expect(f?.evidence).toMatchObject({ trial_id: failing.id, log: "verifier/test-stdout.txt", log_line: 42, test: "tests/test_report.py::test_report_rows" });
    expect(oracleFails(input(t, null, [failing, trial("oracle", 1)]))).toEqual([]);
    // An infrastructure error is not a verdict; a trial of older content does not count.
    expect(oracleFails(input(t, null, [trial("oracle", null, { exceptionType: "AgentTimeoutError" })]))).toEqual([]);
    expect(oracleFails(input(t, null, [trial("oracle", 0, { contentHash: "older" })]))).toEqual([]);
    expect(oracleFails(input(t, null, []))).toEqual([]);
  });

  it("nop-passes: any reward for doing nothing", async () => {
    const t = await analysed(1, PARENT);
    expect(nopPasses(input(t, null, [trial("nop", 0.5)]))[0]?.severity).toBe("high");
    expect(nopPasses(input(t, null, [trial("nop", 0)]))).toEqual([]);
  });

  it("parent-solution-passes: full reward for the parent's solution, with the parent to compare", async () => {
    const t = await analysed(2, PARENT, { parentId: 1 });
    const [f] = parentSolutionPasses(input(t, null, [trial("parent-solution", 1)]));
    expect(f?.evidence.compare_task_id).toBe(1);
    expect(parentSolutionPasses(input(t, null, [trial("parent-solution", 0.75)]))).toEqual([]);
  });

  it("flaky-verifier: oracle and repeat of the same content disagree; different content does not", async () => {
    const t = await analysed(1, PARENT);
    expect(flakyVerifier(input(t, null, [trial("oracle", 1), trial("repeat", 0)]))).toHaveLength(1);
    expect(flakyVerifier(input(t, null, [trial("oracle", 1), trial("repeat", 1)]))).toEqual([]);
    expect(flakyVerifier(input(t, null, [trial("oracle", 1, { contentHash: t.contentHash }), trial("repeat", 0, { contentHash: "old" })]))).toEqual([]);
  });

  it("no-reward: a verifier that wrote nothing or crashed, not a sandbox timeout", async () => {
    const t = await analysed(1, PARENT);
    expect(noReward(input(t, null, [trial("oracle", null, { exceptionType: "RewardFileNotFoundError" })]))).toHaveLength(1);
    expect(noReward(input(t, null, [trial("oracle", null)]))).toHaveLength(1);
    expect(noReward(input(t, null, [trial("oracle", null, { exceptionType: "VerifierTimeoutError" })]))).toEqual([]);
    expect(noReward(input(t, null, [trial("oracle", null, { exceptionType: "SandboxBuildFailedError" })]))).toEqual([]);
  });

  it("missing-validation: accepted without an oracle run, silent when the run has no validation at all", async () => {
    const t = await analysed(1, PARENT);
    expect(missingValidation(input(t, null, [trial("nop", 0)]))).toHaveLength(1);
    expect(missingValidation(input(t, null, []))).toHaveLength(1);
    expect(missingValidation(input(t, null, [], false))).toEqual([]);
    expect(missingValidation(input(t, null, [trial("oracle", 1)]))).toEqual([]);
  });
});

describe("static rules", () => {
  it("verifier-not-updated: new solution, byte-identical tests/", async () => {
    const parent = await analysed(1, PARENT);
    const t = await analysed(2, child({ "solution/solve.sh": PARENT["solution/solve.sh"] + NEW_STEP }), { parentId: 1 });
    const [f] = verifierNotUpdated(input(t, parent));
    expect(f?.evidence).toMatchObject({ file: "solution/solve.sh", line: 10, compare_task_id: 1 });
    const updated = await analysed(3, child({ "solution/solve.sh": PARENT["solution/solve.sh"] + NEW_STEP, "tests/test_archive.py": NEW_TEST }), { parentId: 1 });
    expect(verifierNotUpdated(input(updated, parent))).toEqual([]);
    expect(verifierNotUpdated(input(t, null))).toEqual([]);
  });

  it("instruction-not-updated: a new test file, the same instruction", async () => {
    const parent = await analysed(1, PARENT);
    const t = await analysed(2, child({ "solution/solve.sh": PARENT["solution/solve.sh"] + NEW_STEP, "tests/test_archive.py": NEW_TEST }), { parentId: 1 });
    const [f] = instructionNotUpdated(input(t, parent));
    expect(f?.evidence).toMatchObject({ file: "tests/test_archive.py", test: "test_archive", line: 3, compare_task_id: 1 });
    const told = await analysed(3, child({ "tests/test_archive.py": NEW_TEST, "instruction.md": `${PARENT["instruction.md"]}Archive it as /srv/app/archive/report.tar.gz.\n` }), { parentId: 1 });
    expect(instructionNotUpdated(input(told, parent))).toEqual([]);
  });

  it("weakened-verifier: fewer tests or assertions than the parent, across files", async () => {
    const parent = await analysed(1, PARENT);
    const dropped = await analysed(2, child({ "tests/test_report.py": `from pathlib import Path\n\ndef test_report_exists():\n    assert Path("/srv/app/out/report.csv").is_file()\n` }), { parentId: 1 });
    const [f] = weakenedVerifier(input(dropped, parent));
    expect(f?.message).toContain("test_report_rows");
    expect(f?.evidence).toMatchObject({ file: "tests/test_report.py", test: "test_report_rows", compare_task_id: 1 });
    const fewerAsserts = await analysed(3, child({ "tests/test_report.py": PARENT["tests/test_report.py"].replace('    assert all("," in r for r in rows)\n', "") }), { parentId: 1 });
    expect(weakenedVerifier(input(fewerAsserts, parent))[0]?.message).toContain("fewer assertions (2 vs 3)");
    const grown = await analysed(4, child({ "tests/test_archive.py": NEW_TEST }), { parentId: 1 });
    expect(weakenedVerifier(input(grown, parent))).toEqual([]);
  });

  it("untold-requirement: a checked path nobody mentions, through constants and fixtures", async () => {
    const clean = await analysed(1, PARENT);
    expect(untoldRequirement(input(clean))).toEqual([]);
    const untold = await analysed(2, child({ "tests/test_archive.py": NEW_TEST.replace("report.tar.gz", "report-2024.tar.gz") }));
    const [f] = untoldRequirement(input(untold));
    expect(f?.message).toContain("/srv/app/archive/report-2024.tar.gz");
    expect(f?.evidence).toMatchObject({ file: "tests/test_archive.py", line: 5, test: "test_archive" });
    // Expected file content that happens to contain a path is not a path the verifier reads.
    const content = await analysed(3, child({ "tests/test_archive.py": `from pathlib import Path\n\ndef test_cron():\n    assert "0 1 * * * /usr/local/bin/x >> /var/log/x/run.log" in Path("/srv/app/out/report.csv").read_text()\n` }));
    expect(untoldRequirement(input(content))).toEqual([]);
    // Named by its file name only, relative to the working directory, or by the environment: told.
    const byName = await analysed(4, child({ "instruction.md": `${PARENT["instruction.md"]}Also keep \`report-2024.tar.gz\` under archive/.\n`, "tests/test_archive.py": NEW_TEST.replace("report.tar.gz", "report-2024.tar.gz") }));
    expect(untoldRequirement(input(byName))).toEqual([]);
  });

  it("unverified-step: an artifact of the new step (variables, heredoc) that no test looks at", async () => {
    const parent = await analysed(1, PARENT);
    const solve = PARENT["solution/solve.sh"] + NEW_STEP;
    const t = await analysed(2, child({ "solution/solve.sh": solve, "tests/test_archive.py": NEW_TEST }), { parentId: 1 });
    const [f] = unverifiedStep(input(t, parent));
    expect(f?.message).toContain("/srv/app/archive/MANIFEST");
    expect(f?.message).not.toContain("report.tar.gz");
    expect(f?.evidence).toMatchObject({ file: "solution/solve.sh", line: 14, compare_task_id: 1 });
    const tested = await analysed(3, child({ "solution/solve.sh": solve, "tests/test_archive.py": `${NEW_TEST}\n\ndef test_manifest():\n    assert "report.csv" in open("/srv/app/archive/MANIFEST").read()\n` }), { parentId: 1 });
    expect(unverifiedStep(input(tested, parent))).toEqual([]);
    // A test that lists the directory looks at what is in it.
    const listed = await analysed(4, child({ "solution/solve.sh": solve, "tests/test_archive.py": `import os\n\ndef test_archive_dir():\n    assert sorted(os.listdir("/srv/app/archive")) == ["MANIFEST", "report.tar.gz"]\n` }), { parentId: 1 });
    expect(unverifiedStep(input(listed, parent))).toEqual([]);
    // The same file name ending a path built under another directory is not this file; joined
    // onto something the reading cannot resolve, the name is all there is, and it counts.
    const elsewhere = (prefix: string) => `${NEW_TEST}\n\ndef test_homes():\n    import os\n    for user in ("a", "b"):\n        assert (${prefix} / user / "MANIFEST").is_file()\n`;
    const other = await analysed(6, child({ "solution/solve.sh": solve, "tests/test_archive.py": elsewhere('Path("/home")').replace("import subprocess", "import subprocess\n    from pathlib import Path") }), { parentId: 1 });
    expect(unverifiedStep(input(other, parent))[0]?.message).toContain("/srv/app/archive/MANIFEST");
    const joined = await analysed(7, child({ "solution/solve.sh": solve, "tests/test_archive.py": `${NEW_TEST}\n\ndef test_manifest():\n    import os\n    assert os.path.isfile(os.path.join(os.environ["ARCHIVE_DIR"], "MANIFEST"))\n` }), { parentId: 1 });
    expect(unverifiedStep(input(joined, parent))).toEqual([]);
    // Unchanged tests/ is verifier-not-updated's finding, not this one's.
    const same = await analysed(5, child({ "solution/solve.sh": solve }), { parentId: 1 });
    expect(unverifiedStep(input(same, parent))).toEqual([]);
  });
});

describe("untold-requirement, environment files", () => {
  it("a data file shipped in environment/ is told by being there", async () => {
    const files = child({
      "environment/Dockerfile": "FROM ubuntu:24.04\nWORKDIR /srv/app\nCOPY data/ /srv/app/data/\n",
      "environment/data/input-2024.csv": "a,b\n",
      "tests/test_input.py": `def test_input_kept():\n    assert open("/srv/app/data/input-2024.csv").read().startswith("a,b")\n`,
    });
    expect(untoldRequirement(input(await analysed(1, files)))).toEqual([]);
    delete files["environment/data/input-2024.csv"];
    expect(untoldRequirement(input(await analysed(2, files)))).toHaveLength(1);
  });

  it("a shipped file tells where it is copied to, not every file of its name", async () => {
    const files = child({
      "environment/Dockerfile": "FROM ubuntu:24.04\nWORKDIR /srv/app\nCOPY Makefile src/Makefile\n",
      "environment/Makefile": "all:\n\tcc -o app app.c\n",
      "tests/test_build.py": `from pathlib import Path\n\ndef test_makefile():\n    assert "-Werror" in Path("/srv/app/src/Makefile").read_text()\n`,
    });
    expect(untoldRequirement(input(await analysed(1, files)))).toEqual([]);
    files["tests/test_build.py"] = `from pathlib import Path\n\ndef test_tool_makefile():\n    assert Path("/srv/app/tools/lc/Makefile").is_file()\n`;
    expect(untoldRequirement(input(await analysed(2, files)))[0]?.message).toContain("/srv/app/tools/lc/Makefile");
  });

  it("/etc/hosts is the task's when a test reads it", async () => {
    const hostsTest = `import socket\nfrom pathlib import Path\n\ndef test_alias():\n    assert "db.internal" in Path("/etc/hosts").read_text()\n`;
    const untold = await analysed(1, child({ "tests/test_hosts.py": hostsTest }));
    expect(untoldRequirement(input(untold))[0]?.message).toContain("/etc/hosts");
    const told = await analysed(2, child({ "tests/test_hosts.py": hostsTest, "instruction.md": `${PARENT["instruction.md"]}Map db.internal to 10.0.0.5 in the hosts file.\n` }));
    expect(untoldRequirement(input(told))).toEqual([]);
  });
});
