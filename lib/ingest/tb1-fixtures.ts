// A Terminal-Bench 1 task directory written by hand (FORMATS.md §2), for ingest, integration and
// browser tests of the TB1 → Harbor mapping (./tb1-task.ts).
import fs from "node:fs";
import path from "node:path";
import { stringify as stringifyYaml } from "yaml";

export interface Tb1TaskOptions {
  /** the directory's name, which is the task's id; default "hello-world" */
  id?: string;
  instruction?: string;
  /** keystroke steps in solution.yaml instead of solution.sh */
  solutionYaml?: boolean;
  /** task.yaml fields added or replaced (a wrong type, another unknown field); undefined removes one */
  extra?: Record<string, unknown>;
}

/** The solution's commands, as solution.sh lines and as solution.yaml steps alike: both measure
 * 3 solution lines, 3 commands, 2 distinct tools (cat, wc; echo is a builtin). */
const COMMANDS = ['echo "Hello, world!" > hello.txt', "cat hello.txt", "wc -c hello.txt"] as const;

const DEFAULT_INSTRUCTION = 'Create a file called hello.txt in the current directory. Write "Hello, world!" to it.\n';

const RUN_TESTS = `#!/bin/bash
# Installs pytest in a throwaway environment, then runs the tests Terminal-Bench copied to $TEST_DIR.
curl -LsSf https://astral.sh/uv/0.7.13/install.sh | sh
source $HOME/.local/bin/env
uv venv .tbench-testing
source .tbench-testing/bin/activate
uv pip install pytest==8.4.1
uv run pytest $TEST_DIR/test_outputs.py -rA
`;

const DOCKERFILE = `FROM ghcr.io/laude-institute/t-bench/ubuntu-24-04:20250624
WORKDIR /app
`;

const DOCKER_COMPOSE = `services:
  client:
    build:
      dockerfile: Dockerfile
    image: \${T_BENCH_TASK_DOCKER_CLIENT_IMAGE_NAME}
    container_name: \${T_BENCH_TASK_DOCKER_CLIENT_CONTAINER_NAME}
    command: [ "sh", "-c", "sleep infinity" ]
    environment:
      - TEST_DIR=\${T_BENCH_TEST_DIR}
    volumes:
      - \${T_BENCH_TASK_LOGS_PATH}:\${T_BENCH_CONTAINER_LOGS_PATH}
      - \${T_BENCH_TASK_AGENT_LOGS_PATH}:\${T_BENCH_CONTAINER_AGENT_LOGS_PATH}
`;

const TEST_OUTPUTS = `from pathlib import Path


def test_hello_file_exists():
    assert Path("/app/hello.txt").exists()


def test_hello_file_content():
    assert Path("/app/hello.txt").read_text().strip() == "Hello, world!"
`;

// Written for YAML 1.1 readers (PyYAML in Terminal-Bench): a string such as "yes" gets quoted.
// Block literals, unfolded, as task authors write instructions.
const YAML_OPTIONS = { version: "1.1", blockQuote: "literal", lineWidth: 0 } as const;

function write(file: string, content: string, mode?: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, mode === undefined ? undefined : { mode });
}

/** task.yaml's text: the usual fields, an extension's unknown field, then `extra` on top. */
export function terminalBench1TaskYaml(opts: Pick<Tb1TaskOptions, "instruction" | "extra"> = {}): string {
  const fields: Record<string, unknown> = {
    instruction: opts.instruction ?? DEFAULT_INSTRUCTION,
    author_name: "Ada Example",
    author_email: "ada@example.com",
    difficulty: "easy",
    category: "file-operations",
    tags: ["file-operations", "bash"],
    parser_name: "pytest",
    max_agent_timeout_sec: 360,
    max_test_timeout_sec: 60,
    run_tests_in_same_shell: false,
    disable_asciinema: false,
    estimated_duration_sec: 30,
    expert_time_estimate_min: 2,
    junior_time_estimate_min: 5,
    // an extension's own field: the mapping must keep it
    rst_origin: { seed: "hello-world", round: 0 },
    ...opts.extra,
  };
  return stringifyYaml(fields, YAML_OPTIONS);
}

/** Writes a TB1 task directory `dir/<id>/` and returns its path. */
export function writeTerminalBench1Task(dir: string, opts: Tb1TaskOptions = {}): string {
  const base = path.join(dir, opts.id ?? "hello-world");
  write(path.join(base, "task.yaml"), terminalBench1TaskYaml(opts));
  if (opts.solutionYaml) {
    const steps = COMMANDS.map((command) => ({ command, min_timeout_sec: 0.1, block: true, append_enter: true }));
    write(path.join(base, "solution.yaml"), stringifyYaml(steps, YAML_OPTIONS));
  } else {
    write(path.join(base, "solution.sh"), `#!/bin/bash\n# Write the greeting, then show it and its size.\n${COMMANDS.join("\n")}\n`, 0o755);
  }
  write(path.join(base, "run-tests.sh"), RUN_TESTS, 0o755);
  write(path.join(base, "Dockerfile"), DOCKERFILE);
  write(path.join(base, "docker-compose.yaml"), DOCKER_COMPOSE);
  write(path.join(base, "tests/test_outputs.py"), TEST_OUTPUTS);
  return base;
}
