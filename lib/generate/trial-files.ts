// Writes one Harbor trial directory (FORMATS.md §3): result.json, config.json, trial.log,
// agent/ and verifier/ logs, and check.json naming the validation check.
import path from "node:path";
import { isoAt } from "./clock";
import type { Rng } from "./prng";
import { ctrfReport, pytestStdout } from "./pytest-output";
import { renderSolve } from "./render";
import type { BrokenCommand } from "./child";
import type { TrialSpec } from "./trial-plan";
import type { TaskContent } from "./types";
import type { TreeWriter } from "./writer";

export interface TrialIdentity {
  taskId: string;
  trialName: string;
  checksum: string;
  runName: string;
  jobId: string;
  /** Trial start, epoch milliseconds. */
  startMs: number;
}

interface Phase {
  started_at: string;
  finished_at: string;
}

const UV_STDERR = "Downloading cpython-3.13.7-linux-x86_64-gnu (download) (32.0MiB)\n Downloaded cpython-3.13.7-linux-x86_64-gnu (download)\nInstalled 6 packages in 14ms\n";
const UV_BROKEN = "  × No solution found when resolving `--with` dependencies:\n  ╰─▶ Because pytest-timout was not found in the package registry and you require pytest-timout==2.3.1, we can\n      conclude that your requirements are unsatisfiable.\n";

function logLine(ms: number, level: string, msg: string): string {
  return `${isoAt(ms).replace("T", " ").replace("Z", "").replace(".", ",")} ${level} harbor.trial: ${msg}`;
}

/** Oracle output: the steps that actually ran (a parent replay lacks the newest step). */
function agentOutput(content: TaskContent, spec: TrialSpec, broken: BrokenCommand | null): string {
  const lines: string[] = [];
  for (const s of content.steps) {
    if (spec.run === "parent" && s === content.steps[content.steps.length - 1]) break;
    if (spec.run === "typo" && broken && s.text.includes(broken.line)) {
      const at = renderSolve(content).split("\n").indexOf(broken.line) + 1;
      lines.push(`/solution/solve.sh: line ${at}: ${broken.wrong}: command not found`);
      break;
    }
    lines.push(...s.output);
  }
  return lines.slice(-80).join("\n") + "\n";
}

export function writeTrial(w: TreeWriter, parentDir: string, rng: Rng, id: TrialIdentity, content: TaskContent, spec: TrialSpec, broken: BrokenCommand | null): number {
  const exitCode = spec.run === "typo" && broken ? 127 : 0;
  const dir = path.join(parentDir, id.trialName);
  const rel = path.relative(w.root, dir);
  w.dir(rel);
  const f = content.family;
  let t = id.startMs;
  const span = (seconds: number): Phase => {
    const started = t;
    t += Math.max(1, Math.round(seconds * 1000));
    return { started_at: isoAt(started), finished_at: isoAt(t) };
  };
  const log: string[] = [logLine(t, "INFO", `Starting trial ${id.trialName} (agent=${spec.agent}, check=${spec.check})`)];
  log.push(logLine(t, "INFO", `Building environment from tasks/${id.taskId}/environment (docker)`));
  const buildFails = spec.failedPhase === "environment_setup";
  const envSeconds = spec.exception?.type === "EnvironmentStartTimeoutError" ? 600 : buildFails ? rng.range(20, 90) : rng.logNormal(30, 0.7);
  const environment_setup = span(envSeconds);
  let agent_setup: Phase | null = null;
  let agent_execution: Phase | null = null;
  let verifier: Phase | null = null;
  if (!buildFails) {
    log.push(logLine(t, "INFO", `Environment ready in ${envSeconds.toFixed(1)}s`));
    agent_setup = span(rng.range(0.2, 2.5));
    const agentSeconds = spec.exception?.type === "AgentTimeoutError" ? f.agentTimeout : spec.agent === "nop" ? rng.range(0.02, 0.2) : rng.logNormal(3 + content.steps.length * 1.6, 0.5);
    agent_execution = span(agentSeconds);
    if (spec.failedPhase !== "agent_execution") {
      log.push(logLine(t, "INFO", `Agent ${spec.agent} finished in ${agentSeconds.toFixed(1)}s (exit code ${exitCode})`));
      const verifierSeconds = spec.exception?.type === "VerifierTimeoutError" ? f.verifierTimeout : rng.logNormal(14 + content.tests.length * 0.15, 0.3);
      verifier = span(verifierSeconds);
    }
  }
  if (spec.exception) log.push(logLine(t, "ERROR", `${spec.exception.type}: ${spec.exception.message}`));
  else log.push(logLine(t, "INFO", `Verifier finished: reward=${spec.reward ?? "null"}`));
  log.push(logLine(t, "INFO", `Trial finished in ${((t - id.startMs) / 1000).toFixed(1)}s`));

  const result = {
    id: rng.uuid(),
    task_name: id.taskId,
    trial_name: id.trialName,
    trial_uri: `file:///runs/${id.runName}/trials/${id.taskId}/${id.trialName}`,
    task_id: { path: `tasks/${id.taskId}` },
    source: "rst-validation",
    task_checksum: id.checksum,
    agent_info: { name: spec.agent, version: "1.0.0", model_info: null },
    agent_result: { n_input_tokens: null, n_cache_tokens: null, n_output_tokens: null, cost_usd: null, metadata: null },
    verifier_result: spec.reward === null ? null : { rewards: { reward: spec.reward } },
    exception_info: spec.exception
      ? {
          exception_type: spec.exception.type,
          exception_message: spec.exception.message,
          exception_traceback: `Traceback (most recent call last):\n  File "/opt/harbor/harbor/trial/trial.py", line 212, in run\n    await self._run_phases()\nharbor.errors.${spec.exception.type}: ${spec.exception.message}\n`,
          occurred_at: isoAt(t),
        }
      : null,
    started_at: isoAt(id.startMs),
    finished_at: isoAt(t),
    environment_setup,
    agent_setup,
    agent_execution,
    verifier,
  };
  w.file(path.join(dir, "result.json"), JSON.stringify(result, null, 2) + "\n");
  const config = {
    task: { path: `tasks/${id.taskId}`, git_url: null, git_commit_id: null, overwrite: false, source: "rst-validation" },
    trial_name: id.trialName,
    trials_dir: `trials/${id.taskId}`,
    timeout_multiplier: 1.0,
    agent: { name: spec.agent, import_path: null, model_name: null, override_timeout_sec: null, kwargs: {} },
    environment: { type: "docker", force_build: false, delete: true, override_cpus: null, override_memory_mb: null, kwargs: {} },
    verifier: { override_timeout_sec: null, disable: false },
    job_id: id.jobId,
  };
  w.file(path.join(dir, "config.json"), JSON.stringify(config, null, 2) + "\n");
  w.file(path.join(dir, "check.json"), JSON.stringify({ check: spec.check }) + "\n");
  w.file(path.join(dir, "trial.log"), log.join("\n") + "\n");
  if (spec.exception) w.file(path.join(dir, "exception.txt"), result.exception_info?.exception_traceback ?? "");

  if (spec.agent === "oracle" && agent_execution && spec.failedPhase !== "agent_execution") {
    w.dir(path.join(rel, "agent"));
    w.file(path.join(dir, "agent", "oracle.txt"), agentOutput(content, spec, broken));
    w.file(path.join(dir, "agent", "exit-code.txt"), `${exitCode}\n`);
  }
  if (verifier) {
    w.dir(path.join(rel, "verifier"));
    const vdir = path.join(dir, "verifier");
    if (spec.exception?.type === "RewardFileNotFoundError") {
      w.file(path.join(vdir, "test-stdout.txt"), "");
      w.file(path.join(vdir, "test-stderr.txt"), UV_BROKEN);
    } else if (spec.results) {
      const seconds = spec.results.reduce((s, r) => s + r.durationMs, 0) / 1000 + rng.range(0.05, 0.4);
      w.file(path.join(vdir, "test-stdout.txt"), pytestStdout(spec.results, { ctrf: f.ctrf, seconds }));
      // uv is quiet on a warm cache; only a cold interpreter download leaves stderr behind.
      if (rng.chance(0.08)) w.file(path.join(vdir, "test-stderr.txt"), UV_STDERR);
      if (spec.reward !== null) w.file(path.join(vdir, "reward.txt"), `${spec.reward}\n`);
      if (f.ctrf) w.file(path.join(vdir, "ctrf.json"), ctrfReport(spec.results, Date.parse(verifier.started_at) + 9000));
    } else {
      // Timed out mid-run: pytest never printed its summary.
      w.file(path.join(vdir, "test-stdout.txt"), `============================= test session starts ==============================\nplatform linux -- Python 3.13.7, pytest-8.4.1, pluggy-1.6.0\nrootdir: /tests\ncollecting ... collected ${content.tests.length} items\n\n../tests/test_outputs.py `);
      w.file(path.join(vdir, "test-stderr.txt"), "Terminated\n");
    }
  }
  return t;
}
