import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { measureTask } from "@/lib/metrics/task";
import { IssueList } from "./errors";
import { parseTaskFiles } from "./harbor-task";
import { terminalBench1TaskYaml, writeTerminalBench1Task, type Tb1TaskOptions } from "./tb1-fixtures";
import { isTerminalBench1, terminalBench1ToHarbor } from "./tb1-task";
import { readTree, type TreeFile } from "./walk";

const DISPLAY = "tb1/hello-world";

function treeOf(files: Record<string, string | Buffer>): TreeFile[] {
  return Object.entries(files).map(([rel, content]) => ({ rel, bytes: Buffer.isBuffer(content) ? content : Buffer.from(content) }));
}

/** The fixture task written to disk and read back the way the importer reads a directory. */
function fixtureTree(opts: Tb1TaskOptions = {}): TreeFile[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-tb1-"));
  try {
    const issues = new IssueList();
    const tree = readTree(writeTerminalBench1Task(dir, opts), issues, "fixture");
    expect(issues.items).toEqual([]);
    return tree;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function convert(tree: readonly TreeFile[]): { out: TreeFile[]; issues: IssueList; file: (rel: string) => string | undefined } {
  const issues = new IssueList();
  const out = terminalBench1ToHarbor(tree, DISPLAY, issues);
  const file = (rel: string) => out.find((f) => f.rel === rel)?.bytes.toString("utf8");
  return { out, issues, file };
}

function tomlOf(yaml: string, files: Record<string, string> = {}): { config: Record<string, unknown>; issues: IssueList } {
  const { file, issues } = convert(treeOf({ "task.yaml": yaml, ...files }));
  const text = file("task.toml");
  return { config: text === undefined ? {} : parseToml(text), issues };
}

const MINIMAL = "instruction: Say hello.\n";

describe("isTerminalBench1", () => {
  it("is a root task.yaml without instruction.md or task.toml", () => {
    expect(isTerminalBench1(fixtureTree())).toBe(true);
    expect(isTerminalBench1(treeOf({ "task.yaml": MINIMAL }))).toBe(true);
    expect(isTerminalBench1(treeOf({ "task.yaml": MINIMAL, "instruction.md": "x" }))).toBe(false);
    expect(isTerminalBench1(treeOf({ "task.yaml": MINIMAL, "task.toml": "" }))).toBe(false);
    expect(isTerminalBench1(treeOf({ "sub/task.yaml": MINIMAL, "solution.sh": "ls\n" }))).toBe(false);
    expect(isTerminalBench1([])).toBe(false);
  });
});

describe("terminalBench1ToHarbor", () => {
  it("maps every file of a TB1 task to its Harbor place, task.yaml into instruction.md and task.toml", () => {
    const tree = fixtureTree();
    const { out, issues, file } = convert(tree);
    expect(issues.items).toEqual([]);
    expect(out.map((f) => f.rel)).toEqual([
      "environment/Dockerfile",
      "environment/docker-compose.yaml",
      "instruction.md",
      "solution/solve.sh",
      "task.toml",
      "tests/test.sh",
      "tests/test_outputs.py",
    ]);
    const original = (rel: string) => tree.find((f) => f.rel === rel)?.bytes.toString("utf8");
    expect(file("solution/solve.sh")).toBe(original("solution.sh"));
    expect(file("tests/test.sh")).toBe(original("run-tests.sh"));
    expect(file("environment/Dockerfile")).toBe(original("Dockerfile"));
    expect(file("environment/docker-compose.yaml")).toBe(original("docker-compose.yaml"));
    expect(file("tests/test_outputs.py")).toBe(original("tests/test_outputs.py"));
    expect(file("instruction.md")).toBe('Create a file called hello.txt in the current directory. Write "Hello, world!" to it.\n');
  });

  it("writes a readable task.toml: version, name, the fields in [metadata], the timeouts in [verifier] and [agent]", () => {
    const { file } = convert(fixtureTree());
    const text = file("task.toml") ?? "";
    expect(text).toMatch(/^# Generated at import from a Terminal-Bench 1 task.yaml/);
    const config = parseToml(text);
    expect(config).toEqual({
      version: "1.0",
      task: { name: "hello-world" },
      metadata: {
        difficulty: "easy",
        category: "file-operations",
        tags: ["file-operations", "bash"],
        author_name: "Ada Example",
        author_email: "ada@example.com",
        parser_name: "pytest",
        expert_time_estimate_min: 2,
        junior_time_estimate_min: 5,
        estimated_duration_sec: 30,
        run_tests_in_same_shell: false,
        disable_asciinema: false,
        rst_origin: { seed: "hello-world", round: 0 },
      },
      verifier: { timeout_sec: 60 },
      agent: { timeout_sec: 360 },
    });
    // documented fields in a fixed order, then the unknown ones
    expect(Object.keys(config.metadata as object)).toEqual([
      "difficulty", "category", "tags", "author_name", "author_email", "parser_name", "expert_time_estimate_min",
      "junior_time_estimate_min", "estimated_duration_sec", "run_tests_in_same_shell", "disable_asciinema", "rst_origin",
    ]);
  });

  it("keeps unknown fields of every shape in [metadata], in task.yaml's order, nulls dropped", () => {
    const yaml = [
      MINIMAL,
      "zeta: last-letter",
      "benchmark_version: 2",
      "reviewed: yes", // YAML 1.1, as Terminal-Bench reads it: a boolean
      "created: 2025-06-01",
      "weights: [0.5, 1.5]",
      "origin: {seed: s1, notes: null, steps: [1, null, 2]}",
      "reviews:\n  - {by: ann, ok: true}\n  - {by: bob, ok: false}",
      "__proto__: a field like any other",
      "",
    ].join("\n");
    const { config, issues } = tomlOf(yaml);
    expect(issues.items).toEqual([]);
    expect(config.metadata).toEqual({
      zeta: "last-letter",
      benchmark_version: 2,
      reviewed: true,
      created: new Date("2025-06-01T00:00:00Z"),
      weights: [0.5, 1.5],
      origin: { seed: "s1", steps: [1, 2] },
      reviews: [{ by: "ann", ok: true }, { by: "bob", ok: false }],
      ["__proto__"]: "a field like any other",
    });
    // TOML writes a table's plain values before its sub-tables
    expect(Object.keys(config.metadata as object)).toEqual(["zeta", "benchmark_version", "reviewed", "created", "weights", "__proto__", "origin", "reviews"]);
  });

  it("drops empty (null) fields and leaves out a timeout section without its field", () => {
    const { config, issues } = tomlOf(`${MINIMAL}author_email:\ncategory: null\nmax_test_timeout_sec: ~\n`);
    expect(issues.items).toEqual([]);
    expect(config).toEqual({ version: "1.0", task: { name: "hello-world" }, metadata: {} });
  });

  it("maps solution.yaml to solution/solution.yaml, alone or beside solution.sh", () => {
    const steps = "- command: ls\n  block: true\n";
    expect(convert(treeOf({ "task.yaml": MINIMAL, "solution.yaml": steps })).file("solution/solution.yaml")).toBe(steps);
    const both = convert(treeOf({ "task.yaml": MINIMAL, "solution.yaml": steps, "solution.sh": "ls\n" }));
    expect(both.issues.items).toEqual([]);
    expect(both.out.map((f) => f.rel)).toEqual(["instruction.md", "solution/solution.yaml", "solution/solve.sh", "task.toml"]);
  });

  it("maps docker-compose.yml to environment/ and keeps every other file where it was", () => {
    const { out, issues } = convert(
      treeOf({
        "task.yaml": MINIMAL,
        "docker-compose.yml": "services: {}\n",
        "data/input.csv": "a,b\n",
        "data/nested/deep.txt": "x\n",
        "README.md": "# notes\n",
        ".dockerignore": "*.pyc\n",
        "tests/fixtures/expected.json": "{}",
        "tests/task.yaml": "not the root one\n",
      }),
    );
    expect(issues.items).toEqual([]);
    expect(out.map((f) => f.rel)).toEqual([
      ".dockerignore",
      "README.md",
      "data/input.csv",
      "data/nested/deep.txt",
      "environment/docker-compose.yml",
      "instruction.md",
      "task.toml",
      "tests/fixtures/expected.json",
      "tests/task.yaml",
    ]);
  });

  it("sorts part by part, like a directory walk, not as whole strings", () => {
    const { out } = convert(treeOf({ "a.txt": "", "a-b/x": "", "a/b": "", "task.yaml": MINIMAL }));
    expect(out.map((f) => f.rel)).toEqual(["a/b", "a-b/x", "a.txt", "instruction.md", "task.toml"]);
  });

  it("reports run-tests.sh beside tests/test.sh as an ambiguous verifier entry point", () => {
    const { out, issues, file } = convert(treeOf({ "task.yaml": MINIMAL, "run-tests.sh": "pytest\n", "tests/test.sh": "bash run.sh\n" }));
    expect(issues.items).toEqual([{ file: `${DISPLAY}/run-tests.sh`, message: expect.stringMatching(/ambiguous verifier entry point/) }]);
    expect(file("tests/test.sh")).toBe("bash run.sh\n");
    expect(out.filter((f) => f.rel === "tests/test.sh")).toHaveLength(1);
    // tests/test.sh alone is the entry point, no question
    expect(convert(treeOf({ "task.yaml": MINIMAL, "tests/test.sh": "bash run.sh\n" })).issues.items).toEqual([]);
  });

  it("reports any other two files that would land on one path", () => {
    const { issues } = convert(treeOf({ "task.yaml": MINIMAL, Dockerfile: "FROM a\n", "environment/Dockerfile": "FROM b\n" }));
    expect(issues.items).toEqual([{ file: `${DISPLAY}/Dockerfile`, message: "would become environment/Dockerfile, which the task already has (environment/Dockerfile)" }]);
  });

  it("reports a missing or unreadable task.yaml and still maps the other files", () => {
    const missing = convert(treeOf({ "solution.sh": "ls\n" }));
    expect(missing.issues.items).toEqual([{ file: DISPLAY, message: "missing task.yaml" }]);
    expect(missing.out.map((f) => f.rel)).toEqual(["solution/solve.sh"]);
    const binary = convert([{ rel: "task.yaml", bytes: Buffer.from([0x69, 0x3a, 0xff, 0xfe]) }]);
    expect(binary.issues.items).toEqual([{ file: `${DISPLAY}/task.yaml`, message: "not UTF-8 text" }]);
  });

  it.each([
    ["a broken flow list", "instruction: Say hello.\ntags: [bash\ndifficulty: easy\n", 3],
    ["an unclosed quote", "difficulty: easy\n\ninstruction: 'Say hello.\n", 3] /* found at the end: the last line */,
    ["a duplicate key", "instruction: a\ndifficulty: easy\ninstruction: b\n", 3],
    ["two documents", "instruction: a\n---\ninstruction: b\n", 2],
  ])("reports invalid YAML (%s) with its line, and writes no instruction.md or task.toml", (_, yaml, line) => {
    const { out, issues } = convert(treeOf({ "task.yaml": yaml, "solution.sh": "ls\n" }));
    expect(issues.items).toEqual([{ file: `${DISPLAY}/task.yaml`, line, message: expect.stringMatching(/^invalid YAML: /) }]);
    expect(out.map((f) => f.rel)).toEqual(["solution/solve.sh"]);
  });

  it.each([
    ["empty", "", /found an empty document/],
    ["a list", "- instruction: a\n", /found a list/],
    ["a string", "just some text\n", /found a single string/],
  ])("reports a task.yaml that is %s, not a mapping of fields", (_, yaml, message) => {
    const { issues } = tomlOf(yaml);
    expect(issues.items).toEqual([{ file: `${DISPLAY}/task.yaml`, message: expect.stringMatching(message) }]);
  });

  it("reports a missing or empty instruction, naming the field", () => {
    const missing = convert(treeOf({ "task.yaml": "difficulty: easy\n" }));
    expect(missing.issues.items).toEqual([{ file: `${DISPLAY}/task.yaml`, message: 'missing required field "instruction"' }]);
    expect(missing.file("instruction.md")).toBeUndefined();
    for (const [yaml, line] of [["difficulty: easy\ninstruction: '  '\n", 2], ["instruction: 42\n", 1], ["instruction: [a, b]\n", 1]] as const) {
      expect(convert(treeOf({ "task.yaml": yaml })).issues.items).toEqual([
        { file: `${DISPLAY}/task.yaml`, line, message: 'field "instruction" must be a non-empty string' },
      ]);
    }
  });

  it.each([
    ["difficulty", "3", "a string"],
    ["category", "[a, b]", "a string"],
    ["tags", "bash", "a list of strings"],
    ["tags", "[bash, 1]", "a list of strings"],
    ["author_email", "{name: x}", "a string"],
    ["max_test_timeout_sec", '"60"', "a number"],
    ["max_agent_timeout_sec", ".nan", "a number"],
    ["expert_time_estimate_min", "soon", "a number"],
    ["run_tests_in_same_shell", '"no"', "true or false"],
    ["disable_asciinema", "1", "true or false"],
  ])("reports %s: %s as a wrong type, with its line, and leaves the field out", (field, value, expected) => {
    const { config, issues } = tomlOf(`${MINIMAL}parser_name: pytest\n${field}: ${value}\n`);
    expect(issues.items).toEqual([{ file: `${DISPLAY}/task.yaml`, line: 3, message: `field "${field}" must be ${expected}` }]);
    expect(config.metadata).toEqual({ parser_name: "pytest" });
    expect(config.verifier).toBeUndefined();
    expect(config.agent).toBeUndefined();
  });

  it("gives the same bytes for the same input, and leaves the input as it was", () => {
    const tree = fixtureTree({ extra: { zz: { b: 1, a: [1, 2] }, aa: "first" } });
    const before = tree.map((f) => ({ rel: f.rel, bytes: Buffer.from(f.bytes) }));
    const first = convert(tree).out;
    const second = convert([...tree].reverse()).out;
    expect(tree).toEqual(before);
    expect(second.map((f) => f.rel)).toEqual(first.map((f) => f.rel));
    second.forEach((f, i) => expect(f.bytes.equals(first[i]?.bytes ?? Buffer.alloc(0)), f.rel).toBe(true));
  });
});

describe("a mapped TB1 task read as a Harbor task", () => {
  it.each([
    ["solution.sh", false],
    ["solution.yaml", true],
  ])("parses and measures (%s)", async (_, solutionYaml) => {
    const { out, issues } = convert(fixtureTree({ solutionYaml }));
    const parsed = parseTaskFiles(out, DISPLAY, issues);
    expect(issues.items).toEqual([]);
    expect(parsed).toMatchObject({ name: "hello-world", category: "file-operations", difficulty: "easy" });
    expect(parsed.config).toMatchObject({ verifier: { timeout_sec: 60 }, agent: { timeout_sec: 360 } });
    const metrics = await measureTask(parsed.texts);
    expect(metrics).toMatchObject({ solutionLines: 3, commands: 3, distinctTools: 2, verifierTests: 2, verifierAsserts: 2 });
    expect(metrics.instructionWords).toBeGreaterThan(0);
  });

  it("round-trips a task.yaml written by the fixture with other values", () => {
    const yaml = terminalBench1TaskYaml({ instruction: "Fix the build.\n", extra: { difficulty: "hard", max_test_timeout_sec: 180.5, category: "yes" } });
    const { out, issues } = convert(treeOf({ "task.yaml": yaml }));
    const parsed = parseTaskFiles(out, DISPLAY, issues);
    expect(issues.items).toEqual([]);
    expect(parsed).toMatchObject({ difficulty: "hard", category: "yes", config: { verifier: { timeout_sec: 180.5 } } });
    expect(parsed.texts.get("instruction.md")).toBe("Fix the build.\n");
  });
});
