// Refactoring operators: they rewrite or wrap existing steps instead of only appending, the way
// RST realigns a growing script (functions with timings, error traps, parameterised roots).
import { Part } from "../pytest-parts";
import type { OpContext, Operator } from "../types";
import { free, opResult, sh, snake } from "./common";

/** Steps whose text can be re-indented or rewritten without touching heredoc bodies. */
function plainSteps(c: OpContext): number[] {
  const out: number[] = [];
  c.steps.forEach((s, i) => {
    if (s.op !== "seed" && !s.text.includes("<<") && !s.text.includes("() {")) out.push(i);
  });
  return out;
}

export const wrapInFunction: Operator = {
  id: "wrap-in-function",
  theme: "refactor",
  applies: (c) => plainSteps(c).length > 0 && free(c, `${c.profile.logDir}/step-timings.tsv`),
  build(c) {
    const index = c.rng.pick(plainSteps(c));
    const original = c.steps[index];
    if (!original) throw new Error("wrap-in-function: step vanished");
    const lines = original.text.split("\n");
    const comment = lines[0]?.startsWith("#") ? (lines.shift() ?? "") : "";
    const fn = snake(original.op);
    const log = `${c.profile.logDir}/step-timings.tsv`;
    const text = [
      ...(comment ? [comment] : []),
      "# Runs as a named function so a failure names its stage, with wall time recorded.",
      `${fn}() {`,
      ...lines.map((l) => (l.trim() === "" ? "" : `    ${l}`)),
      "}",
      `TIMINGS=${log}`,
      `mkdir -p "$(dirname "$TIMINGS")"`,
      `[ -s "$TIMINGS" ] || printf 'step\\tfinished_at\\tseconds\\n' > "$TIMINGS"`,
      "started=$(date +%s)",
      fn,
      "finished=$(date +%s)",
      `printf '%s\\t%s\\t%s\\n' "${fn}" "$(date -u +%FT%TZ)" "$((finished - started))" | tee -a "$TIMINGS"`,
    ].join("\n");
    return {
      ...opResult(this.id, {
        step: text,
        output: [...original.output, `${fn}\t2025-01-01T00:00:00Z\t${c.rng.int(0, 4)}`],
        primary: { path: log, kind: "log" },
        testName: `test_${fn}_timing_recorded`,
        testDoc: `The ${original.op} stage runs as a function and logs its duration.`,
        primaryPart: new Part(log).isFile().raw(
          [`rows = [line.split("\\t") for line in p.read_text().splitlines()]`, `assert rows[0] == ["step", "finished_at", "seconds"]`, `assert any(r[0] == ${JSON.stringify(fn)} for r in rows[1:])`],
          2,
          [`AssertionError: assert False`],
        ).build(),
        need: `Run the ${original.op} stage as function ${fn} and append "step, finished_at, seconds" rows to \`${log}\`.`,
        label: "stage timings",
      }),
      replaceIndex: index,
    };
  },
};

export const addErrorHandling: Operator = {
  id: "add-error-handling",
  theme: "refactor",
  applies: (c) => free(c, `${c.profile.logDir}/preflight.txt`),
  build(c) {
    const { app, root, logDir } = c.profile;
    const preflight = `${logDir}/preflight.txt`;
    const errors = `${logDir}/solve-errors.log`;
    const tools = ["awk", "sed", "grep", "find", "sort"].concat(c.rng.sample(["tar", "gzip", "sha256sum", "python3", "stat"], 2));
    const step = sh`
      # Fail loudly: every error names its line and command, and preflight checks run first.
      ERROR_LOG=${errors}
      mkdir -p ${logDir}
      truncate -s 0 "$ERROR_LOG"
      on_error() {
          local status=$? line=$1
          printf '%s line %s exit %s: %s\\n' "$(date -u +%FT%TZ)" "$line" "$status" "$BASH_COMMAND" >> "$ERROR_LOG"
          logger -t ${app}-solve "failed at line $line (exit $status)" || true
      }
      trap 'on_error $LINENO' ERR
      set -o errtrace
      for tool in ${tools.join(" ")}; do
          if ! type -P "$tool" > /dev/null; then
              echo "missing required tool: $tool" >&2
              exit 1
          fi
      done
      avail=$(df -Pk / | awk 'NR == 2 {print $4}')
      [ "$avail" -gt 10240 ] || { echo "less than 10 MiB free" >&2; exit 1; }
      mkdir -p ${root}
      printf 'preflight ok: %s tools, %s KiB free\\n' "${tools.length}" "$avail" | tee ${preflight}`;
    return {
      ...opResult(this.id, {
        step,
        output: [`preflight ok: ${tools.length} tools, ${c.rng.int(2000000, 90000000)} KiB free`],
        primary: { path: preflight, kind: "file" },
        secondary: { path: errors, kind: "log" },
        testName: "test_preflight_and_error_log",
        testDoc: "Preflight checks ran before the solution and no step failed.",
        primaryPart: new Part(preflight).isFile().matches("^preflight ok: [0-9]+ tools, [0-9]+ KiB free$", "preflight line").build(),
        secondaryPart: new Part(errors, "err").isFile().raw([`assert err.read_text() == ""`], 1, ["AssertionError: assert 'line 12 exit 1: ...' == ''"]).build(),
        need: `Check required tools and free space before anything else and write "preflight ok: N tools, K KiB free" to \`${preflight}\`.`,
        needSecondary: `Log any failing command with its line to \`${errors}\` (empty on success).`,
        label: "preflight checks",
        packages: ["bsdutils"],
      }),
      prepend: true,
    };
  },
};

export const parameterizeRoot: Operator = {
  id: "parameterize-root",
  theme: "refactor",
  applies: (c) => plainSteps(c).some((i) => c.steps[i]?.text.includes(c.profile.root) ?? false) && free(c, `${c.profile.root}/config/solve.env`),
  build(c) {
    const { root } = c.profile;
    const candidates = plainSteps(c).filter((i) => c.steps[i]?.text.includes(root) ?? false);
    const index = c.rng.pick(candidates);
    const original = c.steps[index];
    if (!original) throw new Error("parameterize-root: step vanished");
    const snapshot = `${root}/config/solve.env`;
    const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`${escaped}(?=[/\\s"]|$)`, "g");
    const rewritten = original.text
      .split("\n")
      .map((l) => (l.startsWith("#") || l.includes("'") ? l : l.replace(pattern, "$APP_ROOT")))
      .join("\n");
    const step = sh`
      # APP_ROOT can be overridden on staging hosts; the default keeps production paths.
      APP_ROOT="\${APP_ROOT:-${root}}"
      export APP_ROOT
      mkdir -p "$APP_ROOT/config"
      env | grep -E '^(APP_ROOT|LANG|PATH)=' | sort > ${snapshot}
      [ -d "$APP_ROOT" ] || { echo "APP_ROOT $APP_ROOT does not exist" >&2; exit 1; }
      grep -q "^APP_ROOT=${root}$" ${snapshot} || echo "note: APP_ROOT overridden"`;
    return {
      ...opResult(this.id, {
        step: `${step}\n${rewritten}`,
        output: [...original.output],
        primary: { path: snapshot, kind: "config" },
        testName: "test_parameterized_root",
        testDoc: "The solution records the APP_ROOT it ran with.",
        primaryPart: new Part(snapshot).isFile().contains(`APP_ROOT=${root}`).build(),
        need: `Make the ${original.op} stage honour an APP_ROOT override (default ${root}) and snapshot the effective environment to \`${snapshot}\`.`,
        label: "APP_ROOT snapshot",
      }),
      replaceIndex: index,
    };
  },
};
