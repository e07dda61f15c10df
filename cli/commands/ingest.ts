import type { Command } from "commander";
import { INGEST_FORMATS, ingestPath, type IngestFormat } from "@/lib/ingest";
import { CliError } from "../errors";
import { createProgress } from "../progress";
import { withDatabase } from "../with-db";

export function registerIngest(program: Command): void {
  program
    .command("ingest")
    .description("import a synthesis run (idempotent, all or nothing)")
    .argument("<path>", "run directory")
    .option("--run <name>", "run name (default: from run.json)")
    .option("--format <format>", `force a format: ${INGEST_FORMATS.join(", ")}`)
    .option("--json", "print the summary as JSON")
    .action(async (p: string, o: { run?: string; format?: string; json?: boolean }) => {
      if (o.format !== undefined && !(INGEST_FORMATS as readonly string[]).includes(o.format)) {
        throw new CliError(`unknown --format ${o.format}; one of ${INGEST_FORMATS.join(", ")}`);
      }
      await withDatabase(async ({ db }) => {
        const progress = createProgress("ingest");
        const s = await ingestPath(db, p, {
          runName: o.run,
          format: o.format as IngestFormat | undefined,
          onProgress: ({ done, total }) => progress.update(done, total),
        }).finally(() => progress.stop());
        if (o.json) {
          process.stdout.write(`${JSON.stringify(s)}\n`);
          return;
        }
        const secs = (s.durationMs / 1000).toFixed(1);
        if (s.unchanged) {
          process.stdout.write(`${s.run}: nothing new — all ${s.tasksUnchanged} tasks and their trials are already imported (${secs} s)\n`);
          return;
        }
        process.stdout.write(
          `${s.run}: ${s.tasksNew} new tasks, ${s.tasksChanged} changed, ${s.tasksUnchanged} unchanged; ` +
            `${s.trialsNew} trials; ${s.files} files; ${s.blobsNew} new blobs (${(s.bytesNew / 1e6).toFixed(1)} MB); ${secs} s\n`,
        );
      });
    });
}
