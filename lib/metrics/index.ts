/**
 * Measured difficulty of a terminal task, computed at ingest with real parsers.
 *
 * - solution lines: non-blank lines of solution/solve.sh (or a TB1 solution.sh; or a TB1
 *   solution.yaml's keystroke commands, one per line) that are not comment-only; a shebang is a comment; heredoc body lines count, they are part of the script.
 * - executed commands: simple command nodes in the AST (tree-sitter-bash `command`) wherever they
 *   occur — pipelines, subshells, `$(…)` (also inside an unquoted heredoc, where the shell runs it),
 *   function bodies, loops, conditions — each counted once, statically. Heredoc text, comments,
 *   bare assignments, declarations (export/local/declare), `[ … ]` and `unset` are not commands.
 * - distinct tools: distinct command names (basename of a path) minus builtins that are not tools
 *   (see shell-tools.ts) and functions the script defines itself; wrappers (sudo, env, xargs,
 *   timeout, nohup, nice, time, stdbuf) count along with the command they run. Names that are
 *   not literal words (`$CMD`) are skipped.
 * - Parsing: tree-sitter-bash first. Where it runs a command on into the next line without an
 *   error (after a `\`-continued pipeline, or onto a `\cmd` line), a `;` is written at the glue and
 *   the script parsed again (./shell-glue). mvdan-sh reads it instead when the tree has errors, a
 *   glue remains, or a heredoc body holds a line that starts with its delimiter (another
 *   tree-sitter bug that raises no error). If mvdan-sh rejects the script too,
 *   tree-sitter's error-tolerant counts are returned (`parser: "tree-sitter"`), never an error.
 * - verifier tests: pytest-collected test functions over tests/**\/*.py: module-level `test*`
 *   (decorated, async) and `test*` methods of `Test*` classes; nested defs are not tests.
 *   verifier asserts: `assert` statements in those functions, not in functions nested inside.
 * - instruction words: whitespace-separated tokens of instruction.md with a letter or digit.
 * - pass@k: the unbiased estimator from n samples and c successes.
 */
export { measureShell, type ShellMetrics } from "./shell";
export { measurePytest, type PytestMetrics } from "./pytest";
export { countInstructionWords } from "./words";
export { passAtK } from "./pass-at-k";
export { measureTask, type TaskMetrics } from "./task";
