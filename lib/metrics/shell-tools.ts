/** A command word as the parser saw it: its literal value, or null when it is not a literal
 * (a `$VAR`, `$(…)`, or a word with expansions in it). */
export type ShellWord = string | null;

/** Builtins and keywords that do not tell anything about the tools a solution needs. */
const NOT_TOOLS: ReadonlySet<string> = new Set([
  "cd", "export", "set", "unset", "local", "declare", "readonly", "source", ".", "exit", "return",
  "shift", "true", "false", ":", "test", "[", "[[", "eval", "exec", "trap", "wait", "read",
  "pushd", "popd", "shopt", "alias", "builtin", "command", "type", "hash", "ulimit", "umask",
  "echo", "printf", "let", "getopts",
]);

interface OptionSpec {
  /** short options that take the next word as their value (or the rest of the cluster) */
  short: string;
  /** long options that take the next word as their value when written without `=` */
  long: readonly string[];
}

interface Wrapper extends OptionSpec {
  /** words after the options that are not the command: `env`'s VAR=x, `timeout`'s duration */
  skipOperand?: (word: string) => boolean;
  operandsAtMost?: number;
}

const ASSIGNMENT = /^[^=]+=/;

/** Commands that run another command given as their arguments; both count as tools. */
const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map<string, Wrapper>([
  ["sudo", { short: "ugpCDrtUTR", long: ["user", "group", "prompt", "close-from", "chdir", "role", "type", "other-user", "command-timeout", "chroot", "host"] }],
  ["env", { short: "uCS", long: ["unset", "chdir", "split-string"], skipOperand: (w) => ASSIGNMENT.test(w) }],
  // -i, -e and -l take an optional value that can only be attached, so they never eat a word.
  ["xargs", { short: "aEdILnPs", long: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "max-lines", "process-slot-var"] }],
  ["timeout", { short: "sk", long: ["signal", "kill-after"], skipOperand: () => true, operandsAtMost: 1 }],
  ["nohup", { short: "", long: [] }],
  ["nice", { short: "n", long: ["adjustment"] }],
  ["time", { short: "fo", long: ["format", "output"] }],
  ["stdbuf", { short: "ioe", long: ["input", "output", "error"] }],
]);

/** Index of the first word after the options, or -1 when a non-literal word hides where it is. */
function skipOptions(words: readonly ShellWord[], from: number, spec: OptionSpec): number {
  let i = from;
  while (i < words.length) {
    const word = words[i];
    if (word === null || word === undefined) return -1;
    if (word === "--") return i + 1;
    if (word.startsWith("--") && word.length > 2) {
      const name = word.slice(2);
      i += !name.includes("=") && spec.long.includes(name) ? 2 : 1;
      continue;
    }
    if (!word.startsWith("-") || word.length < 2) return i;
    // A cluster like `-Eu root`: the first option that takes a value ends the cluster.
    const valueAt = [...word.slice(1)].findIndex((flag) => spec.short.includes(flag));
    i += valueAt !== -1 && valueAt === word.length - 2 ? 2 : 1;
  }
  return i;
}

function wrappedCommand(wrapper: Wrapper, words: readonly ShellWord[]): readonly ShellWord[] {
  let i = skipOptions(words, 1, wrapper);
  if (i === -1) return [];
  let skipped = 0;
  while (i < words.length && wrapper.skipOperand && skipped < (wrapper.operandsAtMost ?? Infinity)) {
    const word = words[i];
    if (word === null || word === undefined || !wrapper.skipOperand(word)) break;
    i += 1;
    skipped += 1;
  }
  return words.slice(i);
}

/** `/usr/bin/jq` runs jq; a trailing slash or an empty name is not a command name. */
export function commandBaseName(name: string): string | null {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base === "" ? null : base;
}

/** The tools a simple command uses: its own name and, through wrappers, the wrapped command's. */
export function toolsOfCommand(words: readonly ShellWord[]): string[] {
  const tools: string[] = [];
  let rest = words;
  while (rest.length > 0) {
    const first = rest[0];
    if (first === null || first === undefined) break;
    const name = commandBaseName(first);
    if (name === null) break;
    if (!NOT_TOOLS.has(name)) tools.push(name);
    const wrapper = WRAPPERS.get(name);
    if (!wrapper) break;
    rest = wrappedCommand(wrapper, rest);
  }
  return tools;
}
