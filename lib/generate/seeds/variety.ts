// How alike the seeds of one template are. A real run's seeds come from many authors; ours come
// from a few templates, so each template varies its own solutions (alternative implementations
// of each section, chosen per seed) enough that two of its seeds do not read as one task and a
// copy of it — lineage inference links tasks by the lines one solution keeps of another.
import { Rng } from "../prng";
import { renderSolve, renderTestSh } from "../render";
import { lcsLength, solutionLines } from "@/lib/lineage/infer";
import type { TaskContent } from "../types";
import { buildSeed, SEED_TEMPLATES } from "./index";

/** The first `count` seeds of template `t`, built exactly as `generate` builds them for a run seed. */
export function seedsOfTemplate(t: number, count: number, runSeed: number): TaskContent[] {
  const out: TaskContent[] = [];
  for (let k = 0; k < count; k++) {
    const i = k * SEED_TEMPLATES.length + t;
    out.push(buildSeed(new Rng(runSeed, `seed:${i}`), i, `seed-${i + 1}`, renderTestSh).content);
  }
  return out;
}

/** For every pair of the seeds, the share of the shorter solution's lines the other keeps in order. */
export function pairwiseShares(seeds: readonly TaskContent[]): number[] {
  const lines = seeds.map((s) => solutionLines(renderSolve(s)));
  const shares: number[] = [];
  for (let a = 0; a < lines.length; a++) {
    for (let b = a + 1; b < lines.length; b++) {
      const x = lines[a] ?? [];
      const y = lines[b] ?? [];
      shares.push(lcsLength(x, y) / Math.max(1, Math.min(x.length, y.length)));
    }
  }
  return shares;
}

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}
