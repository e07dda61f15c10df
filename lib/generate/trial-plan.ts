// Decides which validation trials a candidate gets and what each one observes: per-test
// outcomes derived from the task content, the reward the verifier writes, or the exception.
import type { Rng } from "./prng";
import type { TestResult } from "./pytest-output";
import { renderTest, type TestLayout } from "./render";
import type { TaskContent, TestCase } from "./types";

export type CheckKind = "oracle" | "nop" | "parent-solution" | "repeat";

export const INFRA_ERRORS = ["SandboxBuildFailedError", "EnvironmentStartTimeoutError", "AgentTimeoutError", "VerifierTimeoutError"] as const;
export type InfraError = (typeof INFRA_ERRORS)[number];

export type Scenario =
  | { kind: "valid"; repeats: number; skipParent: boolean }
  | { kind: "typo" }
  | { kind: "infra"; error: InfraError }
  | { kind: "flaky" }
  | { kind: "no-reward" }
  | { kind: "none" };

/** What the agent did before the verifier ran. */
export type Run = "oracle" | "typo" | "nop" | "parent" | "stale";

export interface TrialSpec {
  check: CheckKind;
  agent: "oracle" | "nop";
  run: Run;
  /** Null when the trial ended in an exception before or instead of a verdict. */
  results: TestResult[] | null;
  reward: number | null;
  exception: { type: string; message: string } | null;
  /** The phase the exception ended (later phases did not run). */
  failedPhase: "environment_setup" | "agent_execution" | "verifier" | null;
}

export interface TrialTask {
  content: TaskContent;
  layout: TestLayout;
  /** The typo run aborts before every step's work, not only the newest step's. */
  early: boolean;
  brokenPackage: string | null;
}

function failureOf(t: TestCase): readonly string[] {
  return t.parts[0]?.failure ?? ["AssertionError"];
}

function statusOf(t: TestCase, run: Run, round: number, early: boolean): TestResult["status"] {
  switch (run) {
    case "oracle":
      return "passed";
    case "stale":
      return t.timing ? "failed" : "passed";
    case "typo":
      if (t.passesOnNop) return "passed";
      return t.round === round || early ? "failed" : "passed";
    case "nop":
      if (t.passesOnNop) return "passed";
      return t.skipsWhenMissing ? "skipped" : "failed";
    case "parent":
      if (t.round !== round) return "passed";
      return t.skipsWhenMissing ? "skipped" : "failed";
  }
}

export function runTests(rng: Rng, task: TrialTask, run: Run): TestResult[] {
  const { content, layout } = task;
  return content.tests.map((t) => {
    const r = renderTest(t);
    const status = statusOf(t, run, content.round, task.early);
    const heavy = t.parts.some((p) => p.lines.some((l) => l.includes("subprocess") || l.includes("sqlite3.connect")));
    const durationMs = heavy ? rng.logNormal(45, 0.9) : rng.logNormal(1.2, 0.7);
    const defLine = (layout.assertLine.get(t.name) ?? 20) - r.assertOffset;
    if (run === "stale" && t.timing) {
      const age = rng.range(61, 240).toFixed(1);
      return {
        name: t.name,
        status,
        durationMs,
        line: defLine + r.timingOffset,
        source: `assert age < 60, f"${t.parts[0]?.path ?? ""} is stale ({age:.1f}s old)"`,
        failure: [`AssertionError: ${t.parts[0]?.path ?? ""} is stale (${age}s old)`, `assert ${age} < 60`],
      };
    }
    return {
      name: t.name,
      status,
      durationMs,
      line: status === "skipped" ? defLine + 3 : defLine + r.assertOffset,
      source: r.assertSource,
      failure: status === "failed" ? failureOf(t) : [],
      ...(status === "skipped" ? { skipReason: `Skipped: ${t.parts[0]?.path ?? ""} not generated in this environment` } : {}),
    };
  });
}

export function rewardOf(results: readonly TestResult[], partial: boolean): number {
  const failed = results.filter((r) => r.status === "failed").length;
  const passed = results.filter((r) => r.status === "passed").length;
  if (!partial) return failed === 0 ? 1 : 0;
  return passed + failed === 0 ? 0 : Math.round((passed / (passed + failed)) * 10000) / 10000;
}

function exceptionMessage(error: InfraError | "RewardFileNotFoundError", task: TrialTask): string {
  const f = task.content.family;
  switch (error) {
    case "SandboxBuildFailedError":
      return `Docker build failed (exit code 100): E: Unable to locate package ${task.brokenPackage ?? "python3-yaml-tools"}`;
    case "EnvironmentStartTimeoutError":
      return "Environment did not become ready within 600.0 seconds";
    case "AgentTimeoutError":
      return `Agent execution timed out after ${f.agentTimeout.toFixed(1)} seconds`;
    case "VerifierTimeoutError":
      return `Verifier execution timed out after ${f.verifierTimeout.toFixed(1)} seconds`;
    case "RewardFileNotFoundError":
      return "No reward file found at /logs/verifier/reward.txt or /logs/verifier/reward.json";
  }
}

const PHASE: Record<InfraError, TrialSpec["failedPhase"]> = {
  SandboxBuildFailedError: "environment_setup",
  EnvironmentStartTimeoutError: "environment_setup",
  AgentTimeoutError: "agent_execution",
  VerifierTimeoutError: "verifier",
};

function verdict(rng: Rng, task: TrialTask, check: CheckKind, agent: "oracle" | "nop", run: Run, partial: boolean): TrialSpec {
  const results = runTests(rng, task, run);
  return { check, agent, run, results, reward: rewardOf(results, partial), exception: null, failedPhase: null };
}

function failure(task: TrialTask, check: CheckKind, agent: "oracle" | "nop", run: Run, error: InfraError | "RewardFileNotFoundError"): TrialSpec {
  const failedPhase = error === "RewardFileNotFoundError" ? "verifier" : PHASE[error];
  return { check, agent, run, results: null, reward: null, exception: { type: error, message: exceptionMessage(error, task) }, failedPhase };
}

export function planTrials(rng: Rng, task: TrialTask, scenario: Scenario): TrialSpec[] {
  const partial = task.content.testSh.includes("Partial credit");
  const hasParent = task.content.round > 0;
  const base = (oracleRun: Run): TrialSpec[] => {
    const out = [verdict(rng, task, "oracle", "oracle", oracleRun, partial), verdict(rng, task, "nop", "nop", "nop", partial)];
    if (hasParent) {
      // Replaying the parent's solution sometimes outlives the agent timeout; that is noise, not a verdict.
      out.push(rng.chance(0.01) ? failure(task, "parent-solution", "oracle", "parent", "AgentTimeoutError") : verdict(rng, task, "parent-solution", "oracle", "parent", partial));
    }
    return out;
  };
  switch (scenario.kind) {
    case "none":
      return [];
    case "valid": {
      const out = base("oracle");
      if (scenario.skipParent) out.splice(2, 1);
      for (let i = 0; i < scenario.repeats; i++) out.push(verdict(rng, task, "repeat", "oracle", "oracle", partial));
      return out;
    }
    case "typo":
      return base("typo");
    case "flaky":
      return [...base("oracle"), verdict(rng, task, "repeat", "oracle", "stale", partial)];
    case "no-reward": {
      const out: TrialSpec[] = [failure(task, "oracle", "oracle", "oracle", "RewardFileNotFoundError"), failure(task, "nop", "nop", "nop", "RewardFileNotFoundError")];
      if (hasParent) out.push(failure(task, "parent-solution", "oracle", "parent", "RewardFileNotFoundError"));
      return out;
    }
    case "infra": {
      if (scenario.error === "SandboxBuildFailedError") {
        const out: TrialSpec[] = [failure(task, "oracle", "oracle", "oracle", scenario.error), failure(task, "nop", "nop", "nop", scenario.error)];
        if (hasParent) out.push(failure(task, "parent-solution", "oracle", "parent", scenario.error));
        return out;
      }
      const out = base("oracle");
      out[0] = failure(task, "oracle", "oracle", "oracle", scenario.error);
      return out;
    }
  }
}
