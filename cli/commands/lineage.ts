import type { Command } from "commander";
import { findRun } from "@/db/queries/checks";
import { InferenceRefused, inferRunLineage } from "@/lib/lineage/run";
import { CliError } from "../errors";
import { withDatabase } from "../with-db";

export function registerLineage(program: Command): void {
  const lineage = program.command("lineage").description("lineage of runs that arrive without parent links (C12)");

  lineage
    .command("infer")
    .description("infer each task's parent from its solution (a child extends its parent's solve.sh), with a confidence; rounds unknown become depths")
    .requiredOption("--run <name>", "the run (Harbor task directories, JSONL without parent ids)")
    .option("--dry-run", "report what would be linked, write nothing")
    .option("--json", "print the summary as JSON")
    .action(async (o: { run: string; dryRun?: boolean; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const [run] = await findRun(db, o.run);
        if (!run) throw new CliError(`no run named "${o.run}"`);
        const s = await inferRunLineage(db, run, { dryRun: o.dryRun }).catch((err: unknown) => {
          throw err instanceof InferenceRefused ? new CliError(err.message) : err;
        });
        if (o.json) {
          process.stdout.write(`${JSON.stringify(s)}\n`);
          return;
        }
        const c = s.confidence;
        process.stdout.write(
          `${s.run}: ${s.tasks} tasks, ${s.linked} linked to a parent (confidence ≥ 0.8: ${c.high}, 0.5–0.8: ${c.medium}, below: ${c.low}), ${s.roots} roots; ` +
            `${s.roundsFromDepth} rounds taken from depth; ${s.written ? "written" : "dry run, nothing written"} (${(s.durationMs / 1000).toFixed(1)} s)\n`,
        );
      });
    });
}
