import { describe, expect, it } from "vitest";
import { deriveChild } from "../child";
import { Rng } from "../prng";
import { renderTestSh } from "../render";
import { createdPaths } from "../rule-checks";
import { buildSeed, SEED_TEMPLATES } from "../seeds";
import type { OpContext, TaskContent } from "../types";
import { OPERATORS, pickOperator } from "./index";

const pathsIn = (lines: readonly string[]): string[] => [...lines.join("\n").matchAll(/"(\/[^"\s{}]+)"/g)].map((m) => m[1] ?? "");

/** Seeds of every template plus a few generations of descendants, as operator inputs. */
function parents(): TaskContent[] {
  const out: TaskContent[] = [];
  SEED_TEMPLATES.forEach((_, i) => {
    const rng = new Rng(11, `seed:${i}`);
    let task = buildSeed(rng, i, `seed-${i}`, renderTestSh).content;
    out.push(task);
    for (let round = 1; round <= 8; round++) {
      const ctx: OpContext = { rng, profile: task.family.profile, artifacts: task.artifacts, steps: task.steps, round };
      const op = pickOperator(rng, ctx, task.opsUsed);
      if (!op) break;
      task = deriveChild(task, op.id, op.theme, op.build(ctx), round, {}, rng).content;
      out.push(task);
    }
  });
  return out;
}

describe("operators", () => {
  const pool = parents();

  it("offers a wide library", () => {
    expect(OPERATORS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(OPERATORS.map((o) => o.id)).size).toBe(OPERATORS.length);
  });

  it("name in the requirement every path their tests check, and test every path they write", () => {
    let applied = 0;
    const issues = new Set<string>();
    const visiblySecondary = new Set<string>();
    for (const parent of pool) {
      for (const op of OPERATORS) {
        const ctx: OpContext = { rng: new Rng(5, op.id), profile: parent.family.profile, artifacts: parent.artifacts, steps: parent.steps, round: parent.round + 1 };
        if (!op.applies(ctx)) continue;
        const r = op.build(ctx);
        applied++;
        const told = `${r.need} ${r.needSecondary ?? ""}`;
        for (const p of [r.primary.path, ...pathsIn(r.primaryPart.lines)]) if (!r.need.includes(p)) issues.add(`${op.id}: requirement omits ${p}`);
        if (r.secondaryPart) for (const p of [r.secondary?.path ?? "", ...pathsIn(r.secondaryPart.lines)]) if (!told.includes(p)) issues.add(`${op.id}: requirement omits ${p}`);
        // Rewritten or wrapped steps keep writing what older tests already check.
        const older = parent.tests.flatMap((t) => t.parts.flatMap((part) => part.lines));
        const tested = [r.primaryPart, r.secondaryPart].flatMap((part) => (part ? part.lines : [])).concat(older).join("\n");
        const written = createdPaths(r.step.text.split("\n"), r.step.text);
        for (const p of written) if (!tested.includes(p)) issues.add(`${op.id}: writes untested ${p}`);
        if (r.secondary && written.includes(r.secondary.path)) visiblySecondary.add(op.id);
      }
    }
    expect([...issues].slice(0, 40)).toEqual([]);
    // Enough operators write their secondary artifact by redirection to carry unverified-step defects.
    expect(visiblySecondary.size).toBeGreaterThan(15);
    expect(applied).toBeGreaterThan(500);
  });

  it("applies to every seed family for many rounds", () => {
    for (const t of pool) {
      const ctx: OpContext = { rng: new Rng(1, "x"), profile: t.family.profile, artifacts: t.artifacts, steps: t.steps, round: t.round + 1 };
      expect(OPERATORS.filter((op) => op.applies(ctx)).length, t.family.template).toBeGreaterThan(20);
    }
  });
});
