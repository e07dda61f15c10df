// Deliberate verifier inconsistencies (FORMATS.md § Checks). Each rule is realised in the task
// content or its trials the way real pipelines produce it, never by a marker; truth.jsonl is
// the only place that names it.
import { FLAG_RULES, type FlagRule } from "@/lib/domain";
import type { Mutation } from "./child";
import type { Rng } from "./prng";
import type { Operator } from "./types";

/** The rules of FORMATS.md § Checks, one list for the whole product. */
export const RULES = FLAG_RULES;
export type Rule = FlagRule;

/** Share of accepted non-seed tasks that carry a defect. */
export const DEFECT_RATE = 0.07;

export interface DefectPlan {
  mutation: Mutation;
  /** Operator filter: some rules need an operator that only changes an existing artifact. */
  accept: (op: Operator) => boolean;
  /** The rule needs an operator result with a secondary artifact. */
  needsSecondary: boolean;
  /** The rule needs this many parent tests to remove some. */
  minParentTests: number;
}

const any = () => true;

export function planDefect(rule: Rule): DefectPlan {
  const base = { accept: any, needsSecondary: false, minParentTests: 0 };
  switch (rule) {
    case "oracle-fails":
      return { ...base, mutation: { typo: true } };
    case "nop-passes":
      return { ...base, mutation: { testSh: "partial" } };
    case "parent-solution-passes":
      return { ...base, mutation: { skipNewTests: true } };
    case "flaky-verifier":
      return { ...base, mutation: { timingTest: true } };
    case "verifier-not-updated":
      // Only an in-place change keeps every new path covered by old tests and the instruction.
      return { ...base, mutation: { keepTests: true }, accept: (op) => op.extendsExisting === true };
    case "instruction-not-updated":
      return { ...base, mutation: { keepInstruction: true }, accept: (op) => op.extendsExisting === true };
    case "untold-requirement":
      return { ...base, mutation: { untold: true }, accept: (op) => op.extendsExisting !== true, needsSecondary: true };
    case "unverified-step":
      return { ...base, mutation: { dropSecondaryTest: true }, accept: (op) => op.extendsExisting !== true, needsSecondary: true };
    case "weakened-verifier":
      return { ...base, mutation: { removeParentTests: 2 }, minParentTests: 4 };
    case "no-reward":
      return { ...base, mutation: { testSh: "broken" } };
    case "missing-validation":
      return { ...base, mutation: {} };
  }
}

/**
 * Hands out rules so every rule appears once per cycle of eleven (shuffled per cycle): small runs
 * still cover all of them and large ones stay balanced.
 */
export class DefectDealer {
  private queue: Rule[] = [];

  constructor(private readonly rng: Rng) {}

  next(): Rule {
    if (this.queue.length === 0) this.queue = this.rng.shuffle(RULES);
    const rule = this.queue.pop();
    if (!rule) throw new Error("defect queue empty");
    return rule;
  }

  /** Puts a rule back when the chosen parent cannot carry it; it goes to the next task. */
  undo(rule: Rule): void {
    this.queue.push(rule);
  }
}
