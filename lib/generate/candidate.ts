// One synthesis candidate: pick an operator for the parent, apply it with the mutations its fate
// (accepted, defective, rejected for a reason) calls for, and choose its validation scenario.
import { deriveChild, type BrokenCommand, type Mutation } from "./child";
import { planDefect, type Rule } from "./defects";
import { pickOperator } from "./operators";
import { createdPaths } from "./shell-paths";
import type { Reason } from "./plan";
import type { Rng } from "./prng";
import { INFRA_ERRORS, type InfraError, type Scenario } from "./trial-plan";
import type { OpResult, Operator, TaskContent } from "./types";

export interface Candidate {
  content: TaskContent;
  operator: string;
  /** The misspelt command that makes the reference solution fail, if any. */
  broken: BrokenCommand | null;
  /** The broken step runs before the others, so nothing after it is produced either. */
  early: boolean;
  brokenPackage: string | null;
  scenario: Scenario;
  repairAttempts: number;
}

function repeats(rng: Rng): number {
  if (!rng.chance(0.1)) return 0;
  return rng.chance(0.7) ? 1 : 2;
}

function acceptedAttempts(rng: Rng): number {
  const x = rng.next();
  return x < 0.8 ? 0 : x < 0.94 ? 1 : x < 0.99 ? 2 : 3;
}

/**
 * What a defect needs from the operator's secondary artifact: to be visibly written (so leaving
 * it untested is noticeable) or to be new to the instruction and environment (so leaving it
 * unmentioned makes the requirement untold).
 */
type NeedsSecondary = false | "visible" | "unmentioned";

function hasSecondary(parent: TaskContent, result: OpResult, need: NeedsSecondary): boolean {
  if (!need) return true;
  const secondary = result.secondary;
  if (!secondary) return false;
  if (need === "visible") return createdPaths(result.step.text.split("\n"), result.step.text).includes(secondary.path);
  const told = [parent.family.intro, ...parent.requirements.map((q) => q.full + q.short), ...parent.family.fixtures.map((f) => f.dest)];
  return !told.some((t) => t.includes(secondary.path));
}

/** Whether an appended step writes under a directory the parent's tests compare exactly (a
 * mirror's source): the parent's test would then fail on the child's solution. */
function writesPinned(parent: TaskContent, result: OpResult): boolean {
  if (result.prepend || result.replaceIndex !== undefined) return false;
  const pinned = parent.artifacts.flatMap((a) => a.pins ?? []);
  if (pinned.length === 0) return false;
  const text = result.step.text;
  const writes = [result.primary.path, result.secondary?.path, ...createdPaths(text.split("\n"), text)];
  return writes.some((p) => p !== undefined && pinned.some((d) => p === d || p.startsWith(`${d}/`)));
}

/** Applies an operator that satisfies `accept`, retrying others when a build lacks what is needed. */
function apply(rng: Rng, parent: TaskContent, accept: (op: Operator) => boolean, needsSecondary: NeedsSecondary): { op: Operator; result: OpResult } | null {
  const ctx = { rng, profile: parent.family.profile, artifacts: parent.artifacts, steps: parent.steps, round: parent.round + 1 };
  const tried = new Set<string>();
  for (let attempt = 0; attempt < 8; attempt++) {
    const op = pickOperator(rng, ctx, parent.opsUsed, (o) => !tried.has(o.id) && accept(o));
    if (!op) return null;
    const result = op.build(ctx);
    if (hasSecondary(parent, result, needsSecondary) && !writesPinned(parent, result)) return { op, result };
    tried.add(op.id);
  }
  return null;
}

function scenarioForReason(rng: Rng, reason: Reason): { scenario: Scenario; mutation: Mutation; attempts: number } {
  switch (reason) {
    case "oracle_failed": {
      const attempts = rng.int(0, 2);
      if (rng.chance(0.65)) return { scenario: { kind: "typo" }, mutation: { typo: true }, attempts };
      const error: InfraError = rng.chance(0.4) ? "SandboxBuildFailedError" : rng.pick(INFRA_ERRORS.slice(1));
      return { scenario: { kind: "infra", error }, mutation: error === "SandboxBuildFailedError" ? { brokenPackage: true } : {}, attempts };
    }
    case "repair_exhausted":
      return { scenario: { kind: "typo" }, mutation: { typo: true }, attempts: 3 };
    case "shortcut_audit":
      // The audit often has sandbox evidence: the new test skips itself, so the parent passes.
      return { scenario: { kind: "valid", repeats: 0, skipParent: false }, mutation: rng.chance(0.6) ? { skipNewTests: true } : {}, attempts: rng.int(0, 1) };
    case "static_check":
      return { scenario: { kind: "none" }, mutation: { syntaxError: true }, attempts: rng.int(0, 1) };
    case "duplicate":
    case "contamination":
      return { scenario: { kind: "none" }, mutation: {}, attempts: 0 };
  }
}

function scenarioForDefect(rule: Rule, rng: Rng): Scenario {
  switch (rule) {
    case "oracle-fails":
      return { kind: "typo" };
    case "flaky-verifier":
      return { kind: "flaky" };
    case "no-reward":
      return { kind: "no-reward" };
    case "missing-validation":
      return { kind: "none" };
    case "verifier-not-updated":
      // With no new test there is nothing for the parent-solution check to run.
      return { kind: "valid", repeats: repeats(rng), skipParent: true };
    default:
      return { kind: "valid", repeats: repeats(rng), skipParent: false };
  }
}

/**
 * Builds a candidate. For an accepted task `rule` may ask for a defect; it returns null for the
 * defect when the parent cannot carry it (the caller then retries without one).
 */
export function buildCandidate(rng: Rng, parent: TaskContent, accepted: boolean, reason: Reason | null, rule: Rule | null): Candidate | null {
  const round = parent.round + 1;
  let mutation: Mutation = {};
  let scenario: Scenario = { kind: "valid", repeats: repeats(rng), skipParent: false };
  let attempts = acceptedAttempts(rng);
  let accept: (op: Operator) => boolean = () => true;
  let needsSecondary: NeedsSecondary = false;
  if (rule) {
    const plan = planDefect(rule);
    if (parent.tests.length < plan.minParentTests) return null;
    mutation = plan.mutation;
    accept = plan.accept;
    needsSecondary = !plan.needsSecondary ? false : rule === "unverified-step" ? "visible" : "unmentioned";
    scenario = scenarioForDefect(rule, rng);
  } else if (!accepted && reason) {
    const r = scenarioForReason(rng, reason);
    mutation = r.mutation;
    scenario = r.scenario;
    attempts = r.attempts;
  }
  const applied = apply(rng, parent, accept, needsSecondary);
  if (!applied) {
    if (rule) return null;
    throw new Error(`no operator applies to a round-${parent.round} task of family ${parent.family.seedId}`);
  }
  const { content, broken, early } = deriveChild(parent, applied.op.id, applied.op.theme, applied.result, round, mutation, rng);
  const added = content.packages.length > parent.packages.length ? content.packages[content.packages.length - 1] : undefined;
  return {
    content,
    operator: applied.op.id,
    broken,
    early,
    brokenPackage: mutation.brokenPackage ? (added ?? null) : null,
    scenario,
    repairAttempts: attempts,
  };
}
