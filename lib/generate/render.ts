// Renders a task's in-memory model to the files of a Harbor task directory (FORMATS.md §1).
import type { TaskContent, TestCase } from "./types";

export function renderInstruction(c: TaskContent): string {
  const out = [`# ${c.family.title}`, "", c.family.intro];
  const reqs = c.requirements;
  const newest = reqs[reqs.length - 1];
  if (newest) {
    out.push("", "## Extensions", "");
    if (reqs.length > 1) {
      out.push("Still required:", "");
      for (let i = 0; i < reqs.length - 1; i++) out.push(reqs[i]?.short ?? "");
      out.push("");
    }
    out.push(newest.full);
  }
  return out.join("\n") + "\n";
}

const toml = (s: string): string => JSON.stringify(s);
const tomlList = (items: readonly string[]): string => `[${items.map(toml).join(", ")}]`;

export function renderTaskToml(c: TaskContent, taskId: string): string {
  const f = c.family;
  return [
    'schema_version = "1.1"',
    "",
    "[task]",
    `name = ${toml(`rst-demo/${taskId}`)}`,
    `description = ${toml(f.title)}`,
    `keywords = ${tomlList(c.tags.slice(0, 6))}`,
    "",
    "[metadata]",
    'author_name = "RST synthesis pipeline"',
    'author_email = "rst-pipeline@example.com"',
    `difficulty = ${toml(f.difficulty)}`,
    `category = ${toml(f.category)}`,
    `tags = ${tomlList(c.tags)}`,
    `expert_time_estimate_min = ${f.expertMinutes}`,
    `junior_time_estimate_min = ${f.juniorMinutes}`,
    "",
    "[verifier]",
    `timeout_sec = ${f.verifierTimeout.toFixed(1)}`,
    "",
    "[agent]",
    `timeout_sec = ${f.agentTimeout.toFixed(1)}`,
    "",
    "[environment]",
    "build_timeout_sec = 600.0",
    `cpus = ${f.cpus}`,
    `memory_mb = ${f.memoryMb}`,
    "storage_mb = 10240",
    "",
  ].join("\n");
}

export function renderDockerfile(c: TaskContent): string {
  const f = c.family;
  const p = f.profile;
  const pkgs = ["ca-certificates", ...c.packages.filter((x) => x !== "ca-certificates")];
  const lines = [
    `FROM ${f.image}`,
    "",
    "ENV DEBIAN_FRONTEND=noninteractive",
    "RUN apt-get update \\",
    "    && apt-get install -y --no-install-recommends \\",
    ...pkgs.map((x) => `        ${x} \\`),
    "    && rm -rf /var/lib/apt/lists/*",
    "",
    `RUN mkdir -p ${p.dataDir} ${p.logDir}`,
    `WORKDIR ${p.root}`,
    "",
    ...f.fixtures.map((x) => `COPY ${x.src} ${x.dest}`),
    "",
  ];
  return lines.join("\n");
}

export function renderSolve(c: TaskContent): string {
  return ["#!/bin/bash", `# Reference solution: ${c.family.title}.`, "set -euo pipefail", "", c.steps.map((s) => s.text).join("\n\n"), ""].join("\n");
}

const RUN_LINE = (ctrf: boolean) =>
  ctrf
    ? ["uvx \\", "  -p 3.13 \\", "  -w pytest==8.4.1 \\", "  -w pytest-json-ctrf==0.3.5 \\", "  pytest --ctrf /logs/verifier/ctrf.json /tests/test_outputs.py -rA --tb=short"]
    : ["uvx \\", "  -p 3.13 \\", "  -w pytest==8.4.1 \\", "  pytest /tests/test_outputs.py -rA --tb=short"];

const PREAMBLE = [
  "#!/bin/bash",
  "",
  "# The verifier image is minimal: fetch curl and uv, then run pytest in a pinned interpreter.",
  "apt-get update > /dev/null 2>&1",
  "apt-get install -y curl > /dev/null 2>&1",
  "",
  "curl -LsSf https://astral.sh/uv/0.8.13/install.sh | sh > /dev/null 2>&1",
  "source $HOME/.local/bin/env",
  "",
  'if [ "$PWD" = "/" ]; then',
  '    echo "Error: No working directory set. Please set a WORKDIR in your Dockerfile before running this script."',
  "    exit 1",
  "fi",
  "",
];

/** The stock verifier: reward 1 when every test passes, else 0. */
export function renderTestSh(ctrf: boolean): string {
  return [...PREAMBLE, ...RUN_LINE(ctrf), "", "if [ $? -eq 0 ]; then", "  echo 1 > /logs/verifier/reward.txt", "else", "  echo 0 > /logs/verifier/reward.txt", "fi", ""].join("\n");
}

/** A realignment that switched to partial credit: the share of passing tests becomes the reward. */
export function renderPartialCreditTestSh(ctrf: boolean): string {
  const run = RUN_LINE(ctrf);
  return [
    ...PREAMBLE,
    "# Partial credit: the share of passing tests is the reward.",
    `out=$(${run.join("\n")} 2>&1)`,
    'echo "$out"',
    "passed=$(echo \"$out\" | grep -c '^PASSED ' || true)",
    "failed=$(echo \"$out\" | grep -c '^FAILED ' || true)",
    "total=$((passed + failed))",
    'if [ "$total" -gt 0 ]; then',
    "  awk -v p=\"$passed\" -v t=\"$total\" 'BEGIN { printf \"%.4f\\n\", p / t }' > /logs/verifier/reward.txt",
    "else",
    "  echo 0 > /logs/verifier/reward.txt",
    "fi",
    "",
  ].join("\n");
}

/** A realignment that pinned a misspelt plugin under `set -e`: uvx fails before any reward is written. */
export function renderBrokenTestSh(ctrf: boolean): string {
  const run = RUN_LINE(ctrf);
  const broken = [...run.slice(0, 3), "  -w pytest-timout==2.3.1 \\", ...run.slice(3)];
  return [
    ...PREAMBLE.slice(0, 2),
    "set -euo pipefail",
    ...PREAMBLE.slice(2),
    ...broken.map((l) => (l.includes("pytest ") && !l.includes("-w") ? `${l} --timeout 120` : l)),
    "",
    "echo 1 > /logs/verifier/reward.txt",
    "",
  ].join("\n");
}

/**
 * The verifier's imports: the standard modules its tests use, then pytest (imported by every
 * verifier, as written ones do). A module no test uses is not imported, so a child that adds the
 * first sqlite test also adds `import sqlite3`, and searching for a module finds the tasks that
 * use it rather than every task.
 */
const TEST_IMPORTS = [
  "import csv",
  "import grp",
  "import gzip",
  "import json",
  "import os",
  "import pwd",
  "import re",
  "import socket",
  "import sqlite3",
  "import stat",
  "import subprocess",
  "import time",
  "import xml.etree.ElementTree as ET",
  "from pathlib import Path",
] as const;

/** An import is used where code names what it binds (its last word) followed by `.` or `(`, and
 * not as an attribute (`os.stat(…)` uses os, not stat). */
const TEST_MODULES = TEST_IMPORTS.map((line) => [line, new RegExp(`(?<![.\\w])${line.split(" ").at(-1)}[.(]`)] as const);

export function testHeader(bodies: readonly string[]): string[] {
  // Code only: a docstring that ends a sentence with "time." uses no module.
  const code = bodies.flatMap((b) => b.split("\n")).filter((l) => !l.trimStart().startsWith('"""'));
  const used = TEST_MODULES.filter(([, use]) => code.some((l) => use.test(l))).map(([line]) => line);
  return [...used, ...(used.length ? [""] : []), "import pytest"];
}

export interface RenderedTest {
  text: string;
  lineCount: number;
  /** Offset (from the `def` line) of the first assertion, for failure locations. */
  assertOffset: number;
  assertSource: string;
  /** Offset and source of the freshness assertion of a timing-dependent test. */
  timingOffset: number;
}

const cache = new WeakMap<TestCase, RenderedTest>();

export function renderTest(t: TestCase): RenderedTest {
  const hit = cache.get(t);
  if (hit) return hit;
  const lines = [`def ${t.name}():`, `    """${t.doc}"""`];
  const first = t.parts[0];
  if (t.skipsWhenMissing && first) {
    lines.push(`    if not Path(${JSON.stringify(first.path)}).exists():`, `        pytest.skip("${first.path} not generated in this environment")`);
  }
  let assertOffset = -1;
  for (const part of t.parts) {
    for (const l of part.lines) {
      if (assertOffset < 0 && l.trimStart().startsWith("assert")) assertOffset = lines.length;
      lines.push(`    ${l}`);
    }
  }
  let timingOffset = -1;
  if (t.timing && first) {
    lines.push(`    age = time.time() - Path(${JSON.stringify(first.path)}).stat().st_mtime`, `    assert age < 60, f"${first.path} is stale ({age:.1f}s old)"`);
    timingOffset = lines.length - 1;
  }
  const offset = Math.max(assertOffset, 2);
  const r = { text: lines.join("\n"), lineCount: lines.length, assertOffset: offset, assertSource: lines[offset] ?? "", timingOffset };
  cache.set(t, r);
  return r;
}

export interface TestLayout {
  text: string;
  /** 1-based line of each test's first assertion, by test name. */
  assertLine: Map<string, number>;
}

export function renderTests(c: TaskContent): TestLayout {
  const rendered = c.tests.map((t) => ({ name: t.name, r: renderTest(t) }));
  const head = [`"""Verifier for: ${c.family.title}."""`, "", ...testHeader(rendered.map(({ r }) => r.text))];
  const parts: string[] = [head.join("\n")];
  const assertLine = new Map<string, number>();
  let line = head.length + 1;
  for (const { name, r } of rendered) {
    line += 2;
    assertLine.set(name, line + r.assertOffset);
    parts.push(r.text);
    line += r.lineCount;
  }
  return { text: parts.join("\n\n\n") + "\n", assertLine };
}
