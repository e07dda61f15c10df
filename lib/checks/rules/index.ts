// The eleven rules of FORMATS.md § Checks, one module each.
import type { FlagRule } from "@/lib/domain";
import type { RuleModule } from "../types";
import { flakyVerifier } from "./flaky-verifier";
import { instructionNotUpdated } from "./instruction-not-updated";
import { missingValidation } from "./missing-validation";
import { noReward } from "./no-reward";
import { nopPasses } from "./nop-passes";
import { oracleFails } from "./oracle-fails";
import { parentSolutionPasses } from "./parent-solution-passes";
import { untoldRequirement } from "./untold-requirement";
import { unverifiedStep } from "./unverified-step";
import { verifierNotUpdated } from "./verifier-not-updated";
import { weakenedVerifier } from "./weakened-verifier";

export const RULE_MODULES: readonly RuleModule[] = [
  { id: "oracle-fails", needs: "trials", run: oracleFails },
  { id: "nop-passes", needs: "trials", run: nopPasses },
  { id: "parent-solution-passes", needs: "trials", run: parentSolutionPasses },
  { id: "flaky-verifier", needs: "trials", run: flakyVerifier },
  { id: "verifier-not-updated", needs: "static", run: verifierNotUpdated },
  { id: "instruction-not-updated", needs: "static", run: instructionNotUpdated },
  { id: "untold-requirement", needs: "static", run: untoldRequirement },
  { id: "unverified-step", needs: "static", run: unverifiedStep },
  { id: "weakened-verifier", needs: "static", run: weakenedVerifier },
  { id: "no-reward", needs: "trials", run: noReward },
  { id: "missing-validation", needs: "trials", run: missingValidation },
];

export function ruleModule(id: FlagRule): RuleModule {
  const m = RULE_MODULES.find((r) => r.id === id);
  if (!m) throw new Error(`unknown rule ${id}`);
  return m;
}
