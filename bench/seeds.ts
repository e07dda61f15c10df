// npx tsx bench/seeds.ts [--per 40] [--seed 1]
// How alike the demo generator's seeds are. A real run's seeds come from many authors; ours come
// from a few templates, so each template must vary its own solutions enough that two seeds of it
// do not read as one task and its copy (lineage inference would then link them). Builds `--per`
// seeds of every template, exactly as `generate` would, and prints per template the share of
// lines two of its seeds keep in order (longest common subsequence over the shorter solution),
// and the seeds' measured metrics (lib/generate/seeds/variety.ts; its test holds the bounds).
import { parseArgs } from "node:util";
import { renderInstruction, renderSolve } from "@/lib/generate/render";
import { SEED_TEMPLATES } from "@/lib/generate/seeds";
import { pairwiseShares, quantile, seedsOfTemplate } from "@/lib/generate/seeds/variety";
import { countInstructionWords, measureShell } from "@/lib/metrics";

const { values: args } = parseArgs({ options: { per: { type: "string", default: "40" }, seed: { type: "string", default: "1" } } });
const per = Number(args.per);
const runSeed = Number(args.seed);

const T = SEED_TEMPLATES.length;
const all = { share: [] as number[], lines: [] as number[], commands: [] as number[], tools: [] as number[], words: [] as number[] };
console.log("template                 share p50  p90  max   lines p50  commands p50  tools p50  words p50");
for (let t = 0; t < T; t++) {
  const seeds = seedsOfTemplate(t, per, runSeed);
  const m = { lines: [] as number[], commands: [] as number[], tools: [] as number[], words: [] as number[] };
  for (const content of seeds) {
    const shell = await measureShell(renderSolve(content));
    m.lines.push(shell.lines);
    m.commands.push(shell.commands);
    m.tools.push(shell.distinctTools);
    m.words.push(countInstructionWords(renderInstruction(content)));
  }
  const shares = pairwiseShares(seeds);
  all.share.push(...shares);
  for (const k of ["lines", "commands", "tools", "words"] as const) all[k].push(...m[k]);
  const id = SEED_TEMPLATES[t]?.id ?? String(t);
  const f = (x: number) => x.toFixed(2);
  console.log(
    `${id.padEnd(24)} ${f(quantile(shares, 0.5))} ${f(quantile(shares, 0.9))} ${f(quantile(shares, 1))}  ${String(quantile(m.lines, 0.5)).padStart(9)}  ${String(quantile(m.commands, 0.5)).padStart(12)}  ${String(quantile(m.tools, 0.5)).padStart(9)}  ${String(quantile(m.words, 0.5)).padStart(9)}`,
  );
}
const f = (x: number) => x.toFixed(2);
console.log(`${"all".padEnd(24)} ${f(quantile(all.share, 0.5))} ${f(quantile(all.share, 0.9))} ${f(quantile(all.share, 1))}  ${String(quantile(all.lines, 0.5)).padStart(9)}  ${String(quantile(all.commands, 0.5)).padStart(12)}  ${String(quantile(all.tools, 0.5)).padStart(9)}  ${String(quantile(all.words, 0.5)).padStart(9)}`);
