import type { Command } from "commander";
import { generateRun } from "@/lib/generate";
import { generateRelease, OutputRefused } from "@/lib/generate/release";
import { CliError } from "../errors";
import { createProgress } from "../progress";
import { parseIntOption } from "../options";

export function registerGenerate(program: Command): void {
  program
    .command("generate")
    .description("write a deterministic, realistic demo RST run in the native layout (or, with --layout release, its accepted tasks as the public RST release)")
    .requiredOption("--out <dir>", "output directory (replaced if it holds an earlier generated run)")
    .option("--tasks <n>", "accepted tasks, seeds included (rejected candidates come on top)", parseIntOption, 1500)
    .option("--rounds <n>", "synthesis rounds after the seeds", parseIntOption, 15)
    .option("--seed <s>", "random seed", parseIntOption, 1)
    .option("--name <name>", "run name")
    .option("--layout <layout>", "native, or release: opaque ids, tar shards, metadata/tasks.parquet, no lineage (FORMATS.md §5)", "native")
    .option("--tasks-per-shard <n>", "with --layout release: tasks per tar shard", parseIntOption, 2000)
    .action(async (o: { out: string; tasks: number; rounds: number; seed: number; name?: string; layout: string; tasksPerShard: number }) => {
      const progress = createProgress("generate");
      const started = Date.now();
      if (o.layout !== "native" && o.layout !== "release") throw new CliError(`unknown --layout ${o.layout}; native or release`);
      if (o.layout === "release") {
        const r = await generateRelease({ ...o, onProgress: (d: number, t: number) => progress.update(d, t) }).catch((err: unknown) => {
          throw err instanceof OutputRefused ? new CliError(err.message) : err;
        });
        progress.stop();
        process.stdout.write(
          `generated the release ${r.name} in ${r.out}: ${r.tasks} tasks in ${r.shards} shards, ${(r.bytes / 1e6).toFixed(1)} MB ` +
            `(lineage-truth.jsonl beside it; ${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
        );
        return;
      }
      const s = await generateRun({ ...o, onProgress: (d: number, t: number) => progress.update(d, t) });
      progress.stop();
      process.stdout.write(
        `generated ${s.name} in ${s.out}: ${s.accepted} accepted (${s.seeds} seeds), ${s.rejected} rejected, ` +
          `${s.trials} trials, ${s.files} files, ${(s.bytes / 1e6).toFixed(1)} MB, ${s.defects} injected defects ` +
          `(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
    });
}
