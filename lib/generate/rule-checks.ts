// A deliberately simple re-implementation of FORMATS.md § Checks over a generated run, used by
// the generator's own tests to prove that clean tasks are consistent and that each injected
// defect trips its rule (and only it). The product's real checks live in lib/checks.
import fs from "node:fs";
import path from "node:path";
import type { Rule } from "./defects";
import { addedLines, createdPaths } from "./shell-paths";

export { addedLines, createdPaths };

export interface TaskFiles {
  instruction: string;
  dockerfile: string;
  solve: string;
  tests: string;
  testSh: string;
}

export interface TrialInfo {
  check: string;
  reward: number | null;
  exception: string | null;
}

export function readTaskFiles(run: string, id: string): TaskFiles {
  const dir = path.join(run, "tasks", id);
  const read = (rel: string) => fs.readFileSync(path.join(dir, rel), "utf8");
  return {
    instruction: read("instruction.md"),
    dockerfile: read("environment/Dockerfile"),
    solve: read("solution/solve.sh"),
    tests: read("tests/test_outputs.py"),
    testSh: read("tests/test.sh"),
  };
}

export function readTrials(run: string, id: string): TrialInfo[] {
  const dir = path.join(run, "trials", id);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).sort().map((name) => {
    const result = JSON.parse(fs.readFileSync(path.join(dir, name, "result.json"), "utf8")) as {
      verifier_result: { rewards: { reward: number } } | null;
      exception_info: { exception_type: string } | null;
    };
    const check = (JSON.parse(fs.readFileSync(path.join(dir, name, "check.json"), "utf8")) as { check: string }).check;
    return { check, reward: result.verifier_result?.rewards.reward ?? null, exception: result.exception_info?.exception_type ?? null };
  });
}

export const testNames = (py: string): string[] => [...py.matchAll(/^def (test_\w+)\(/gm)].map((m) => m[1] ?? "");
export const assertCount = (py: string): number => (py.match(/^\s+assert /gm) ?? []).length;

/** Absolute paths quoted in the verifier (what a test "looks at"). */
export function testedPaths(py: string): string[] {
  return [...py.matchAll(/"(\/[^"\s{}]+)"/g)].map((m) => m[1] ?? "").filter((p) => p.length > 1);
}

function mentioned(p: string, f: TaskFiles): boolean {
  return f.instruction.includes(p) || f.dockerfile.includes(p);
}

function looksAt(p: string, tests: string): boolean {
  return tests.includes(p);
}

/** The rules that fire for a task, given its parent (null for seeds) and its trials. */
export function firedRules(child: TaskFiles, parent: TaskFiles | null, trials: readonly TrialInfo[]): Set<Rule> {
  const fired = new Set<Rule>();
  const by = (check: string) => trials.filter((t) => t.check === check);
  const oracle = by("oracle");
  if (oracle.length === 0) fired.add("missing-validation");
  if (oracle.some((t) => t.exception === null && t.reward !== null && t.reward < 1)) fired.add("oracle-fails");
  if (by("nop").some((t) => (t.reward ?? 0) > 0)) fired.add("nop-passes");
  if (by("parent-solution").some((t) => t.reward !== null && t.reward >= 1)) fired.add("parent-solution-passes");
  const verdicts = [...oracle, ...by("repeat")].filter((t) => t.reward !== null).map((t) => t.reward);
  if (new Set(verdicts).size > 1) fired.add("flaky-verifier");
  if (trials.some((t) => t.exception === "RewardFileNotFoundError")) fired.add("no-reward");
  for (const p of testedPaths(child.tests)) if (!mentioned(p, child)) fired.add("untold-requirement");
  if (parent) {
    const testsSame = child.tests === parent.tests && child.testSh === parent.testSh;
    if (child.solve !== parent.solve && testsSame) fired.add("verifier-not-updated");
    if (!testsSame && child.instruction === parent.instruction) fired.add("instruction-not-updated");
    if (testNames(child.tests).length < testNames(parent.tests).length || assertCount(child.tests) < assertCount(parent.tests)) fired.add("weakened-verifier");
    const added = addedLines(parent.solve, child.solve);
    const untested = createdPaths(added, child.solve).filter((p) => !looksAt(p, child.tests));
    if (untested.length > 0 && !testsSame) fired.add("unverified-step");
  }
  return fired;
}
