// The synthetic native run (FORMATS.md §4) bench/browser.ts measures: one family of 5,000 tasks
// under a single seed, and a second family whose seed and child have 20,000-line solutions that
// differ on every eighth line and in a few inserted and deleted blocks. Deterministic.
import fs from "node:fs";
import path from "node:path";
import { Rng } from "@/lib/generate/prng";

export const FAMILY_SIZE = 5_000;
export const BIG_LINES = 20_000;
export const FAMILY_SEED = "fam-0000";
export const BIG_CHILD = "big-child";

interface Node {
  id: string;
  parent: number | null;
  depth: number;
  rejected: boolean;
  solution: string[];
  tests: string[];
}

function write(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const OPERATORS = ["add-cron-job", "service-account", "logrotate-config", "rsync-mirror", "firewall-rules", "systemd-unit", "env-template"] as const;

function writeTask(dir: string, id: string, solution: string, tests: string[], round: number): void {
  const base = path.join(dir, "tasks", id);
  write(path.join(base, "instruction.md"), `# ${id}\n\nSet up the service of round ${round}. Write \`/app/out-${id}.txt\` when it is done.\n`);
  write(path.join(base, "task.toml"), `schema_version = "1.1"\n[task]\nname = "bench/${id}"\n[metadata]\ndifficulty = "easy"\ncategory = "system-administration"\n`);
  write(path.join(base, "environment/Dockerfile"), "FROM ubuntu:24.04\nWORKDIR /app\n");
  write(path.join(base, "solution/solve.sh"), solution);
  write(path.join(base, "tests/test.sh"), "#!/bin/bash\npytest /tests/test_outputs.py && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n");
  write(path.join(base, "tests/test_outputs.py"), `from pathlib import Path\n\n${tests.join("\n\n")}\n`);
}

function step(rng: Rng, id: string): string[] {
  const op = rng.pick(OPERATORS);
  return [`# ${op} for ${id}`, `install -d -m 0755 /etc/${op}/${id}`, `echo "${id} ready" > /app/out-${id}.txt`];
}

/** A 5,000-task tree: each candidate extends a recent accepted task; a third are rejected (no children). */
function family(rng: Rng): Node[] {
  const nodes: Node[] = [
    {
      id: FAMILY_SEED,
      parent: null,
      depth: 0,
      rejected: false,
      solution: ["#!/bin/bash", "set -euo pipefail", "mkdir -p /app"],
      tests: ["def test_seed():\n    assert Path('/app').is_dir()"],
    },
  ];
  const accepted = [0];
  while (nodes.length < FAMILY_SIZE) {
    const i = nodes.length;
    // Newer tasks are likelier parents, so families grow deep as well as wide (rounds 0–15).
    const pick = accepted[Math.max(0, accepted.length - 1 - Math.floor(rng.next() ** 2 * accepted.length))] ?? 0;
    const parent = nodes[pick];
    if (!parent || parent.depth >= 15) continue;
    const id = `fam-${String(i).padStart(4, "0")}`;
    const node: Node = {
      id,
      parent: pick,
      depth: parent.depth + 1,
      rejected: rng.chance(0.3),
      solution: [...parent.solution, ...step(rng, id)],
      tests: [...parent.tests, `def test_${id.replace("-", "_")}():\n    assert Path('/app/out-${id}.txt').exists()`],
    };
    nodes.push(node);
    if (!node.rejected) accepted.push(i);
  }
  return nodes;
}

/** A long, varied shell script: commands, loops, functions, heredocs, comments. */
function bigScript(rng: Rng): string[] {
  const lines = ["#!/bin/bash", "set -euo pipefail"];
  let n = 0;
  // Whole blocks only (a cut heredoc would not parse), then one-line commands up to the count.
  while (lines.length < BIG_LINES - 5) {
    n++;
    switch (rng.int(0, 5)) {
      case 0:
        lines.push(`# section ${n}: stage the configuration of unit ${n}`);
        break;
      case 1:
        lines.push(`install -m 0644 "/src/conf/unit-${n}.conf" "/etc/app/conf.d/${n}.conf"`);
        break;
      case 2:
        lines.push(`for f in /var/lib/app/${n}/*.log; do`, `  gzip -9 "$f" && echo "compressed $f" >> /var/log/app-${n}.txt`, "done");
        break;
      case 3:
        lines.push(`cat > /etc/app/unit-${n}.ini <<'EOF'`, `[unit]`, `name = unit-${n}`, `threads = ${rng.int(1, 64)}`, "EOF");
        break;
      case 4:
        lines.push(`check_${n}() {`, `  curl -fsS "http://127.0.0.1:${8000 + (n % 1000)}/health" | grep -q ok`, "}", `check_${n} || echo "unit ${n} unhealthy" >&2`);
        break;
      default:
        lines.push(`sed -i 's/^threads = .*/threads = ${rng.int(1, 64)}/' /etc/app/unit-${n}.ini`);
    }
  }
  while (lines.length < BIG_LINES) lines.push(`touch /var/lib/app/done-${lines.length}`);
  return lines;
}

/** The child: every eighth line edited, a few blocks inserted and deleted. */
function bigChild(parent: readonly string[]): string[] {
  const out: string[] = [];
  for (const [i, line] of parent.entries()) {
    if (i > 2 && i % 500 === 250 && /^(install|sed) /.test(line)) continue; // a deleted command now and then
    out.push(i > 2 && i % 8 === 5 ? line.replace(/\d+/, (d) => String(Number(d) + 1)) : line);
    if (i % 1_000 === 999) out.push(`# inserted after line ${i + 1}`, `systemctl reload app-${i}.service || true`);
  }
  return out;
}

/** Writes the run to `dir` (replacing it); returns what it holds. */
export function writeBrowserRun(dir: string, name: string): { tasks: number } {
  fs.rmSync(dir, { recursive: true, force: true });
  const rng = new Rng(7, "browser-bench");
  const nodes = family(rng.fork("family"));
  const big = bigScript(rng.fork("big"));
  const lineage: string[] = [];
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  for (const [i, node] of nodes.entries()) {
    const parent = node.parent === null ? null : (nodes[node.parent]?.id ?? null);
    writeTask(dir, node.id, `${node.solution.join("\n")}\n`, node.tests, node.depth);
    lineage.push(
      JSON.stringify({
        task_id: node.id,
        parent_id: parent,
        round: node.depth,
        operator: parent === null ? null : rng.pick(OPERATORS),
        status: node.rejected ? "rejected" : "accepted",
        rejection_reason: node.rejected ? "oracle_failed" : null,
        repair_attempts: 0,
        created_at: at(i),
      }),
    );
  }
  const tests = ["def test_big():\n    assert Path('/etc/app').is_dir()"];
  writeTask(dir, "big-seed", `${big.join("\n")}\n`, tests, 0);
  writeTask(dir, BIG_CHILD, `${bigChild(big).join("\n")}\n`, tests, 1);
  lineage.push(
    JSON.stringify({ task_id: "big-seed", parent_id: null, round: 0, operator: null, status: "accepted", rejection_reason: null, repair_attempts: 0, created_at: at(nodes.length) }),
    JSON.stringify({ task_id: BIG_CHILD, parent_id: "big-seed", round: 1, operator: "rewrite-all", status: "accepted", rejection_reason: null, repair_attempts: 0, created_at: at(nodes.length + 1) }),
  );
  write(path.join(dir, "lineage.jsonl"), `${lineage.join("\n")}\n`);
  write(path.join(dir, "run.json"), JSON.stringify({ name, created_at: at(0), seeds: 2, rounds: 15, solver: { model: "none", k: 1 } }));
  return { tasks: lineage.length };
}
