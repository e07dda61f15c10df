// The in-memory model of a synthesized task. Children share their parent's immutable pieces
// (steps, tests, requirements) by reference, which keeps a whole round in memory cheaply.
import type { Rng } from "./prng";

export const ARTIFACT_KINDS = ["file", "dir", "csv", "json", "yaml", "db", "log", "config", "archive", "script", "repo"] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export interface Artifact {
  path: string;
  kind: ArtifactKind;
  /** Header of a comma-separated file, for operators that select columns by name. */
  columns?: readonly string[];
  /** Main table of an SQLite database (its columns are in `columns`). */
  table?: string;
  /** Line format of a log, for operators that pick fields positionally. */
  format?: "nginx" | "app";
  /** Directories whose exact content a test compares from now on (a mirror checked with
   * `diff -r` against its source): a step appended later must not write under them. */
  pins?: readonly string[];
}

/** The assertions a test makes about one artifact. */
export interface TestPart {
  path: string;
  /** Python statements at test-body indentation (no leading spaces). */
  lines: readonly string[];
  asserts: number;
  /** pytest `E` lines shown when the artifact is missing or wrong. */
  failure: readonly string[];
}

export interface TestCase {
  name: string;
  doc: string;
  parts: readonly TestPart[];
  /** True when the check holds in the untouched environment (e.g. a fixture is intact). */
  passesOnNop: boolean;
  /** The round that added the test; the parent-solution run fails the tests of the child's own round. */
  round: number;
  /** Skips itself when the artifact is absent: the shortcut a parent solution slips through. */
  skipsWhenMissing?: boolean;
  /** Asserts freshness against the wall clock: passes or fails depending on when the verifier runs. */
  timing?: boolean;
}

export interface Step {
  /** Operator id, or "seed" for the seed's own script. */
  op: string;
  /** A bash block, ending without a trailing newline. */
  text: string;
  /** What the block prints when the reference solution runs. */
  output: readonly string[];
}

export interface Requirement {
  /** The paragraph shown while this is the newest requirement. */
  full: string;
  /** The bullet it condenses to once a later round adds its own requirement. */
  short: string;
}

export interface Profile {
  app: string;
  root: string;
  user: string;
  port: number;
  dataDir: string;
  reportDir: string;
  logDir: string;
  /** Inputs the environment ships (fixtures copied by the Dockerfile). */
  inputs: readonly Artifact[];
}

export interface Fixture {
  /** File name inside environment/. */
  src: string;
  dest: string;
  content: string;
}

export type Difficulty = "easy" | "medium";

/** What every member of a seed family shares. */
export interface Family {
  seedId: string;
  template: string;
  title: string;
  category: string;
  difficulty: Difficulty;
  tags: readonly string[];
  image: string;
  intro: string;
  fixtures: readonly Fixture[];
  profile: Profile;
  ctrf: boolean;
  /** Relative chance that members of this family are picked as parents. */
  productivity: number;
  expertMinutes: number;
  juniorMinutes: number;
  verifierTimeout: number;
  agentTimeout: number;
  cpus: number;
  memoryMb: number;
}

export interface TaskContent {
  family: Family;
  round: number;
  requirements: readonly Requirement[];
  packages: readonly string[];
  steps: readonly Step[];
  tests: readonly TestCase[];
  testSh: string;
  artifacts: readonly Artifact[];
  opsUsed: readonly string[];
  tags: readonly string[];
}

export interface OpContext {
  rng: Rng;
  profile: Profile;
  artifacts: readonly Artifact[];
  steps: readonly Step[];
  round: number;
}

/** One application of a rewrite operator, before defects and rendering. */
export interface OpResult {
  /** Append a new block, or replace the block at `replaceIndex` (wrapping or rewriting it). */
  replaceIndex?: number;
  /** Inserted right after the header instead of appended (e.g. error handling). */
  prepend?: boolean;
  step: Step;
  primary: Artifact;
  /** False when the operator changes an artifact the parent already produces. */
  primaryIsNew: boolean;
  secondary: Artifact | null;
  testName: string;
  testDoc: string;
  primaryPart: TestPart;
  secondaryPart: TestPart | null;
  /** Requirement sentence naming the primary artifact. */
  need: string;
  /** Sentence naming the secondary artifact, when there is one. */
  needSecondary: string | null;
  /** Two-to-three word purpose used in the condensed list of earlier requirements. */
  label: string;
  packages: readonly string[];
}

export interface Operator {
  id: string;
  theme: string;
  /** Modifies an artifact the parent already has (suits defects that keep tests or instruction). */
  extendsExisting?: boolean;
  /** Relative sampling weight (default 1). */
  weight?: number;
  applies(c: OpContext): boolean;
  build(c: OpContext): OpResult;
}
