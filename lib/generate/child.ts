// Derives a child task from its parent through one operator application, plus the content
// mutations that realise defects and rejections (a misspelt path, a vacuous test, ...).
import type { Rng } from "./prng";
import { renderBrokenTestSh, renderPartialCreditTestSh } from "./render";
import type { OpResult, Requirement, Step, TaskContent, TestCase, TestPart } from "./types";

export interface Mutation {
  /** New tests skip when their artifact is missing, so the parent's solution passes them. */
  skipNewTests?: boolean;
  /** The new test asserts freshness against the clock: repeated runs disagree. */
  timingTest?: boolean;
  /** tests/ stays byte-identical to the parent's. */
  keepTests?: boolean;
  /** instruction.md stays byte-identical to the parent's. */
  keepInstruction?: boolean;
  /** The instruction leaves out the secondary artifact that a new test checks. */
  untold?: boolean;
  /** No test looks at the secondary artifact the new step creates. */
  dropSecondaryTest?: boolean;
  /** Parent tests dropped during realignment. */
  removeParentTests?: number;
  testSh?: "partial" | "broken";
  /** A command of the new step is misspelt, so the reference solution fails its own tests. */
  typo?: boolean;
  /** An apt package name that does not exist: the image fails to build. */
  brokenPackage?: boolean;
  /** The new step leaves an `if` unterminated: a static check rejects the script. */
  syntaxError?: boolean;
}

const THEME_TAGS: Record<string, string> = {
  archives: "compression",
  files: "file-permissions",
  text: "text-processing",
  json: "structured-data",
  databases: "sqlite",
  vcs: "git",
  system: "sysadmin",
  services: "services",
  security: "security",
  network: "networking",
  build: "build-tools",
  refactor: "shell-scripting",
};

const NOT_COMMANDS = new Set(["if", "then", "else", "elif", "fi", "for", "do", "done", "while", "until", "case", "esac", "echo", "printf", "cd", "test", "local", "export", "set", "return", "exit", "true", "false", "read", "trap", "wait", "kill", "sleep"]);

/** Swaps two adjacent, different letters: `mkdir` → `mkdri`. */
export function misspell(rng: Rng, word: string): string {
  const spots: number[] = [];
  for (let i = 1; i + 1 < word.length; i++) if (/[a-z]/.test(word[i] ?? "") && /[a-z]/.test(word[i + 1] ?? "") && word[i] !== word[i + 1]) spots.push(i);
  if (spots.length === 0) return `${word}x`;
  const i = rng.pick(spots);
  return word.slice(0, i) + (word[i + 1] ?? "") + (word[i] ?? "") + word.slice(i + 2);
}

export interface BrokenCommand {
  /** The misspelt command name, e.g. `mkdri`. */
  wrong: string;
  /** The full line as it appears in solve.sh. */
  line: string;
}

/**
 * Misspells the first external command of the step, so under `set -e` the step aborts with
 * "command not found" before it writes anything: the reference solution fails its own tests.
 */
function misspellFirstCommand(rng: Rng, step: Step): { step: Step; broken: BrokenCommand } | null {
  const lines = step.text.split("\n");
  let terminator: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (terminator !== null) {
      if (line.trim() === terminator) terminator = null;
      continue;
    }
    const doc = /<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?/.exec(line);
    const trimmed = line.trimStart();
    const token = trimmed.split(/\s+/)[0] ?? "";
    const continued = i > 0 && (lines[i - 1] ?? "").trimEnd().endsWith("\\");
    if (!continued && /^[a-z][a-z0-9-]{2,}$/.test(token) && !NOT_COMMANDS.has(token)) {
      const wrong = misspell(rng, token);
      const fixed = line.slice(0, line.length - trimmed.length) + wrong + trimmed.slice(token.length);
      const out = lines.slice();
      out[i] = fixed;
      return { step: { ...step, text: out.join("\n") }, broken: { wrong, line: fixed } };
    }
    if (doc?.[1]) terminator = doc[1];
  }
  return null;
}

function uniqueName(name: string, taken: Set<string>, round: number): string {
  if (!taken.has(name)) return name;
  let candidate = `${name}_r${round}`;
  for (let i = 2; taken.has(candidate); i++) candidate = `${name}_r${round}_${i}`;
  return candidate;
}

function newTests(r: OpResult, round: number, m: Mutation, rng: Rng, taken: Set<string>): TestCase[] {
  const secondary: TestPart | null = m.dropSecondaryTest ? null : r.secondaryPart;
  const flags = { skipsWhenMissing: m.skipNewTests === true };
  const separate = secondary !== null && !m.removeParentTests && rng.chance(0.22);
  const primaryName = uniqueName(r.testName, taken, round);
  const first: TestCase = {
    name: primaryName,
    doc: r.testDoc,
    parts: separate || !secondary ? [r.primaryPart] : [r.primaryPart, secondary],
    passesOnNop: false,
    round,
    ...flags,
    ...(m.timingTest ? { timing: true } : {}),
  };
  if (!separate || !secondary) return [first];
  taken.add(primaryName);
  const second: TestCase = {
    name: uniqueName(`${r.testName}_${secondary.path.split("/").pop()?.replace(/[^a-zA-Z0-9]+/g, "_").toLowerCase() ?? "extra"}`, taken, round),
    doc: `Companion artifact ${secondary.path} is present and consistent.`,
    parts: [secondary],
    passesOnNop: false,
    round,
    ...flags,
  };
  return [first, second];
}

const quotedPaths = (lines: readonly string[]): string[] => [...lines.join("\n").matchAll(/"(\/[^"\s{}]+)"/g)].map((m) => m[1] ?? "");

/** The newest requirement in full, and the bullet it condenses to: every path its tests check. */
function requirementOf(parent: TaskContent, r: OpResult, m: Mutation): Requirement {
  const told = r.secondary !== null && r.needSecondary !== null && !m.untold;
  const full = told ? `${r.need} ${r.needSecondary}` : r.need;
  const known = [parent.family.intro, ...parent.requirements.map((q) => q.short)].join("\n");
  const paths: string[] = [r.primary.path];
  const candidates = [...quotedPaths(r.primaryPart.lines), ...(told && r.secondary ? [r.secondary.path, ...quotedPaths(r.secondaryPart?.lines ?? [])] : [])];
  for (const p of candidates) if (!paths.includes(p) && (!known.includes(p) || p === r.secondary?.path)) paths.push(p);
  const short = paths.length === 1 ? `- \`${r.primary.path}\` (${r.label})` : `- ${paths.map((p) => `\`${p}\``).join(", ")}`;
  return { full, short };
}

export interface Derived {
  content: TaskContent;
  /** Set when the typo mutation broke a command of the new step. */
  broken: BrokenCommand | null;
  /** The new step runs before other steps' work (prepended or rewritten in place). */
  early: boolean;
}

export function deriveChild(parent: TaskContent, opId: string, theme: string, r: OpResult, round: number, m: Mutation, rng: Rng): Derived {
  let step = r.step;
  let broken: BrokenCommand | null = null;
  if (m.typo) {
    const t = misspellFirstCommand(rng, step);
    if (t) {
      step = t.step;
      broken = t.broken;
    }
  }
  if (m.syntaxError) step = { ...step, text: `${step.text}\nif [ ! -s "${r.primary.path}" ]; then\n  echo "${r.primary.path} was not produced" >&2` };

  let steps: Step[];
  if (r.replaceIndex !== undefined) steps = parent.steps.map((s, i) => (i === r.replaceIndex ? step : s));
  else if (r.prepend) steps = [step, ...parent.steps];
  else steps = [...parent.steps, step];

  let tests: readonly TestCase[] = parent.tests;
  if (!m.keepTests) {
    let kept = parent.tests;
    if (m.removeParentTests) {
      const removable = parent.tests.filter((t) => !t.passesOnNop).map((t) => t.name);
      const drop = new Set(rng.sample(removable, Math.min(m.removeParentTests, Math.max(0, removable.length - 1))));
      kept = parent.tests.filter((t) => !drop.has(t.name));
    }
    const taken = new Set(parent.tests.map((t) => t.name));
    tests = [...kept, ...newTests(r, round, m, rng, taken)];
  }

  const packages = parent.packages.slice();
  for (const p of r.packages) if (!packages.includes(p)) packages.push(p);
  if (m.brokenPackage) packages.push(rng.pick(["libxml2-util", "python3-yaml-tools", "sqlite-utils3", "netcat", "xmlstarlet-bin"]));

  const artifacts = parent.artifacts.filter((a) => a.path !== r.primary.path && a.path !== r.secondary?.path);
  artifacts.push(r.primary);
  if (r.secondary) artifacts.push(r.secondary);

  const tag = THEME_TAGS[theme];
  const tags = tag && !parent.tags.includes(tag) && parent.tags.length < 10 ? [...parent.tags, tag] : parent.tags;

  let testSh = parent.testSh;
  if (m.testSh === "partial") testSh = renderPartialCreditTestSh(parent.family.ctrf);
  if (m.testSh === "broken") testSh = renderBrokenTestSh(parent.family.ctrf);

  const content: TaskContent = {
    family: parent.family,
    round,
    requirements: m.keepInstruction ? parent.requirements : [...parent.requirements, requirementOf(parent, r, m)],
    packages,
    steps,
    tests,
    testSh,
    artifacts,
    opsUsed: [...parent.opsUsed, opId],
    tags,
  };
  return { content, broken, early: r.replaceIndex !== undefined || r.prepend === true };
}
