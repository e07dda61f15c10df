// pytest's coloured terminal output and the CTRF report for one verifier run.

export type TestStatus = "passed" | "failed" | "skipped";

export interface TestResult {
  name: string;
  status: TestStatus;
  durationMs: number;
  /** 1-based line of the failing assertion in test_outputs.py. */
  line: number;
  /** Source of the failing assertion. */
  source: string;
  failure: readonly string[];
  skipReason?: string;
}

const ESC = "\x1b[";
const GREEN = `${ESC}32m`;
const RED = `${ESC}31m`;
const YELLOW = `${ESC}33m`;
const BOLD = `${ESC}1m`;
const RESET = `${ESC}0m`;
const WIDTH = 80;

function rule(title: string, fill = "="): string {
  const inner = ` ${title} `;
  const left = Math.max(3, Math.floor((WIDTH - inner.length) / 2));
  const right = Math.max(3, WIDTH - inner.length - left);
  return fill.repeat(left) + inner + fill.repeat(right);
}

export interface SessionInfo {
  ctrf: boolean;
  seconds: number;
}

// Test names repeat across thousands of tasks of a family; their summary lines are built once.
const PASSED_LINES = new Map<string, string>();
function passedLine(name: string): string {
  let line = PASSED_LINES.get(name);
  if (line === undefined) {
    line = `${GREEN}PASSED${RESET} ../tests/test_outputs.py::${BOLD}${name}${RESET}`;
    PASSED_LINES.set(name, line);
  }
  return line;
}

export function pytestStdout(results: readonly TestResult[], s: SessionInfo): string {
  const out: string[] = [];
  out.push(`${BOLD}${rule("test session starts")}${RESET}`);
  out.push("platform linux -- Python 3.13.7, pytest-8.4.1, pluggy-1.6.0");
  out.push("rootdir: /tests");
  if (s.ctrf) out.push("plugins: json-ctrf-0.3.5");
  out.push(`${BOLD}collecting ... ${RESET}collected ${results.length} items`, "");

  let dots = "../tests/test_outputs.py ";
  for (const r of results) dots += r.status === "passed" ? `${GREEN}.${RESET}` : r.status === "failed" ? `${RED}F${RESET}` : `${YELLOW}s${RESET}`;
  const failed = results.filter((r) => r.status === "failed");
  const skipped = results.filter((r) => r.status === "skipped");
  const passed = results.length - failed.length - skipped.length;
  const tone = failed.length > 0 ? RED : skipped.length > 0 ? YELLOW : GREEN;
  out.push(`${dots}${tone} [100%]${RESET}`);

  if (failed.length > 0) {
    out.push("", rule("FAILURES"));
    for (const f of failed) {
      out.push(`${RED}${BOLD}${rule(f.name, "_")}${RESET}`);
      out.push(`${BOLD}${RED}/tests/test_outputs.py${RESET}:${f.line}: in ${f.name}`);
      out.push(`    ${f.source.trim()}`);
      for (const e of f.failure) out.push(`${BOLD}${RED}E   ${e}${RESET}`);
    }
  }

  out.push(`${ESC}36m${rule("short test summary info")}${RESET}`);
  for (const r of results) {
    if (r.status === "passed") out.push(passedLine(r.name));
    else if (r.status === "skipped") out.push(`${YELLOW}SKIPPED${RESET} [1] ../tests/test_outputs.py:${r.line}: ${r.skipReason ?? "skipped"}`);
    else out.push(`${RED}FAILED${RESET} ../tests/test_outputs.py::${BOLD}${r.name}${RESET} - ${f1(r.failure)}`);
  }
  const parts: string[] = [];
  if (failed.length > 0) parts.push(`${RED}${BOLD}${failed.length} failed${RESET}`);
  if (passed > 0) parts.push(`${GREEN}${failed.length > 0 ? "" : BOLD}${passed} passed${RESET}`);
  if (skipped.length > 0) parts.push(`${YELLOW}${skipped.length} skipped${RESET}`);
  const summary = `${parts.join(", ")}${tone} in ${s.seconds.toFixed(2)}s${RESET}`;
  const plain = summary.replace(/\x1b\[[0-9;]*m/g, "");
  const pad = Math.max(3, Math.floor((WIDTH - plain.length - 2) / 2));
  out.push(`${tone}${"=".repeat(pad)} ${summary}${tone} ${"=".repeat(Math.max(3, WIDTH - plain.length - 2 - pad))}${RESET}`);
  return out.join("\n") + "\n";
}

const f1 = (lines: readonly string[]): string => lines[0] ?? "AssertionError";

export function ctrfReport(results: readonly TestResult[], startMs: number): string {
  let t = startMs;
  // Only the fields consumers read; full per-test timestamps would double the file for nothing.
  const tests = results.map((r) => {
    t += Math.max(1, Math.round(r.durationMs));
    const base = { name: `test_outputs.py::${r.name}`, status: r.status, duration: Math.round(r.durationMs * 100) / 100 };
    if (r.status === "failed") return { ...base, message: f1(r.failure), trace: `/tests/test_outputs.py:${r.line}: ${f1(r.failure)}` };
    if (r.status === "skipped") return { ...base, message: r.skipReason ?? "skipped" };
    return base;
  });
  const count = (s: string) => results.filter((r) => r.status === s).length;
  return JSON.stringify({
    results: {
      tool: { name: "pytest" },
      summary: { tests: results.length, passed: count("passed"), failed: count("failed"), pending: 0, skipped: count("skipped"), other: 0, start: startMs, stop: t },
      tests,
    },
  });
}
