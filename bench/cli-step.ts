// A CLI command run as its own process and timed: wall time, and peak RSS under GNU time.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

export interface Step {
  seconds: number;
  max_rss_mb: number | null;
  stdout: string;
}

/** Runs the CLI under GNU time when it is there, for wall time and peak RSS. */
export function cli(label: string, cliArgs: string[], env: Record<string, string> = {}): Step {
  const hasTime = fs.existsSync("/usr/bin/time");
  const cmd = hasTime ? "/usr/bin/time" : process.execPath;
  const full = hasTime ? ["-f", "BENCH_TIME %e %M", process.execPath, "bin/rst-curator.js", ...cliArgs] : ["bin/rst-curator.js", ...cliArgs];
  const started = performance.now();
  const r = spawnSync(cmd, full, { env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`${label} failed (${r.status}):\n${r.stderr}`);
  const m = /BENCH_TIME ([\d.]+) (\d+)/.exec(r.stderr);
  const step = { seconds: Number(seconds.toFixed(1)), max_rss_mb: m?.[2] ? Math.round(Number(m[2]) / 1024) : null, stdout: r.stdout.trim() };
  process.stderr.write(`${label}: ${step.seconds} s, peak RSS ${step.max_rss_mb ?? "?"} MB\n  ${step.stdout.split("\n").slice(-1)[0] ?? ""}\n`);
  return step;
}

