import type { Command } from "commander";
import { generateRun } from "@/lib/generate";
import { createProgress } from "../progress";
import { parseIntOption } from "../options";

export function registerGenerate(program: Command): void {
  program
    .command("generate")
    .description("write a deterministic, realistic demo RST run in the native layout")
    .requiredOption("--out <dir>", "output directory (replaced if it holds an earlier generated run)")
    .option("--tasks <n>", "accepted tasks, seeds included (rejected candidates come on top)", parseIntOption, 1500)
    .option("--rounds <n>", "synthesis rounds after the seeds", parseIntOption, 15)
    .option("--seed <s>", "random seed", parseIntOption, 1)
    .option("--name <name>", "run name")
    .action(async (o: { out: string; tasks: number; rounds: number; seed: number; name?: string }) => {
      const progress = createProgress("generate");
      const started = Date.now();
      const s = await generateRun({ ...o, onProgress: (d: number, t: number) => progress.update(d, t) });
      progress.stop();
      process.stdout.write(
        `generated ${s.name} in ${s.out}: ${s.accepted} accepted (${s.seeds} seeds), ${s.rejected} rejected, ` +
          `${s.trials} trials, ${s.files} files, ${(s.bytes / 1e6).toFixed(1)} MB, ${s.defects} injected defects ` +
          `(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
    });
}
