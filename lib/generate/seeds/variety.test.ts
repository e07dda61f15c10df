import { describe, expect, it } from "vitest";
import { renderInstruction } from "../render";
import { SEED_TEMPLATES } from "./index";
import { pairwiseShares, quantile, seedsOfTemplate } from "./variety";

describe("seeds of one template", () => {
  it.each(SEED_TEMPLATES.map((t, i) => [t.id, i] as const))("%s: two of its seeds share few lines of their solutions", (_id, t) => {
    const shares = pairwiseShares(seedsOfTemplate(t, 16, 1));
    expect(quantile(shares, 0.5)).toBeLessThanOrEqual(0.5);
    expect(quantile(shares, 0.9)).toBeLessThanOrEqual(0.65);
  });

  it.each(SEED_TEMPLATES.map((t, i) => [t.id, i] as const))("%s: its instructions are not all worded alike", (_id, t) => {
    const seeds = seedsOfTemplate(t, 16, 1);
    // With the app's name and paths taken out, the wording itself differs between seeds.
    const skeletons = new Set(seeds.map((s) => renderInstruction(s).replace(/`[^`]*`/g, "`x`").replace(new RegExp(`\\b${s.family.profile.app}\\b`, "g"), "APP").replace(/\d+/g, "0")));
    expect(skeletons.size).toBeGreaterThan(1);
  });
});
