import { describe, expect, it } from "vitest";
import { eachTestLine, locateTests, parsePytestOutput } from "./pytest";

const OUTPUT = [
  "============================= test session starts ==============================",
  "collected 3 items",
  "",
  "tests/test_outputs.py::test_report_exists PASSED                         [ 33%]",
  "tests/test_outputs.py::test_report_totals \x1b[31mFAILED\x1b[0m                         [ 66%]",
  "tests/test_outputs.py::TestArchive::test_members[gz] PASSED              [100%]",
  "",
  "=================================== FAILURES ===================================",
  "__________________________ test_report_totals __________________________",
  "",
  "    def test_report_totals():",
  ">       assert totals == 42",
  "E       AssertionError: assert 41 == 42",
  "=========================== short test summary info ============================",
  "PASSED tests/test_outputs.py::test_report_exists",
  "FAILED tests/test_outputs.py::test_report_totals - AssertionError: assert 41 == 42",
  "PASSED tests/test_outputs.py::TestArchive::test_members[gz]",
  "========================= 1 failed, 2 passed in 0.12s =========================",
].join("\n");

describe("parsePytestOutput", () => {
  it("reads verbose and summary lines, with the summary's message", () => {
    expect(parsePytestOutput(OUTPUT)).toEqual([
      { name: "tests/test_outputs.py::test_report_exists", status: "passed", message: null },
      { name: "tests/test_outputs.py::test_report_totals", status: "failed", message: "AssertionError: assert 41 == 42" },
      { name: "tests/test_outputs.py::TestArchive::test_members[gz]", status: "passed", message: null },
    ]);
  });

  it("finds nothing in output that is not pytest's", () => {
    expect(parsePytestOutput("make: *** [all] Error 1\nFAILED\n")).toEqual([]);
  });
});

describe("locateTests", () => {
  it("points a failing test at its failure section and a passing one at its summary line", () => {
    const lines = locateTests(OUTPUT, [
      { name: "tests/test_outputs.py::test_report_totals", status: "failed" },
      { name: "test_report_exists", status: "passed" },
      { name: "tests/test_outputs.py::TestArchive::test_members[gz]", status: "passed" },
      { name: "test_never_ran", status: "failed" },
    ]);
    expect(lines).toEqual([8, 14, 16, null]);
  });

  it("reads coloured lines as pytest prints them to a terminal", () => {
    const coloured = [
      "\x1b[1m============================= test session starts ==============================\x1b[0m",
      "../tests/test_outputs.py \x1b[32m.\x1b[0m\x1b[31mF\x1b[0m\x1b[31m [100%]\x1b[0m",
      "=================================== FAILURES ===================================",
      "\x1b[31m\x1b[1m________________________________ test_port_map _________________________________\x1b[0m",
      "\x1b[1m\x1b[31mE   AssertionError: /opt/reports/port_map.csv is missing\x1b[0m",
      "\x1b[36m\x1b[1m=========================== short test summary info ============================\x1b[0m",
      "\x1b[32mPASSED\x1b[0m ../tests/test_outputs.py::\x1b[1mtest_config\x1b[0m   ",
      "\x1b[31mFAILED\x1b[0m ../tests/test_outputs.py::\x1b[1mtest_port_map\x1b[0m - AssertionError: /opt/reports/port_map.csv is missing",
    ].join("\n");
    expect(parsePytestOutput(coloured)).toEqual([
      { name: "../tests/test_outputs.py::test_config", status: "passed", message: null },
      { name: "../tests/test_outputs.py::test_port_map", status: "failed", message: "AssertionError: /opt/reports/port_map.csv is missing" },
    ]);
    expect(
      locateTests(coloured, [
        { name: "test_port_map", status: "failed" },
        { name: "../tests/test_outputs.py::test_config", status: "passed" },
      ]),
    ).toEqual([3, 6]);
  });
});

describe("lines passed over without being cut out", () => {
  // The whole-log reading these functions replaced: every line split off and made plain.
  const plain = (raw: string) => raw.replace(/\x1b\[[0-9;]*m/g, "").trimEnd();
  const naiveRows = (text: string) =>
    text
      .split("\n")
      .map((raw, row) => ({ line: plain(raw), row }))
      .filter(({ line }) => line.startsWith("___") || line.includes("::"));

  it("reads markers that colours split, and counts rows past every kind of line", () => {
    const log = [
      "plain line",
      "\x1b[31m_\x1b[0m__ test_split_header ___",
      "tests/t.py:\x1b[1m:test_a PASSED",
      "",
      "FAILED tests/t.py::test_split_header - boom   ",
      "___ test_b ___",
      "tests/t.py::test_b \x1b[31mFAILED\x1b[0m [100%]",
      "",
    ].join("\n");
    const tests = [
      { name: "test_split_header", status: "failed" },
      { name: "tests/t.py::test_a", status: "passed" },
      { name: "test_b", status: "failed" },
    ];
    expect(locateTests(log, tests)).toEqual([1, 2, 5]);
    expect(parsePytestOutput(log)).toEqual([
      { name: "tests/t.py::test_a", status: "passed", message: null },
      { name: "tests/t.py::test_split_header", status: "failed", message: "boom" },
      { name: "tests/t.py::test_b", status: "failed", message: null },
    ]);
  });

  it("visits the lines the whole-log reading finds, on random logs", () => {
    const pieces = ["::", ":", "_", "___ ", "\x1b[1m", "\x1b[0m", "\x1b", "test_x", " PASSED", "FAILED ", "t.py", " ", "\n", "\n", "\r"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % pieces.length;
    for (let n = 0; n < 3000; n++) {
      let log = "";
      for (let k = next() * 3; k > 0; k--) log += pieces[next()];
      const visited: { line: string; row: number }[] = [];
      eachTestLine(log, (line, row) => visited.push({ line, row }));
      expect(visited).toEqual(naiveRows(log));
    }
  });
});
