import type { Command } from "commander";
import { INGEST_FORMATS, ingestPath, type IngestFormat } from "@/lib/ingest";
import { formatIssue, type IngestIssue } from "@/lib/ingest/errors";
import { MIN_THREADED_CANDIDATES } from "@/lib/ingest/native/read-run";
import { CliError } from "../errors";
import { parseIntOption } from "../options";
import { createProgress } from "../progress";
import { withDatabase } from "../with-db";

export function registerIngest(program: Command): void {
  program
    .command("ingest")
    .description("import a synthesis run, Harbor job/trial directories into a run, or a JSONL file of tasks (idempotent, all or nothing)")
    .argument("<path>", "a native run directory; a Harbor job, a folder of jobs, a trials/ folder or one trial; or a .jsonl file (an export's, FORMATS.md §6)")
    .option("--run <name>", "run name (native: default from run.json; Harbor: the run the trials belong to, default the only run; JSONL: default the lines' metadata.run, else the file's name)")
    .option("--format <format>", `force a format: ${INGEST_FORMATS.join(", ")}`)
    .option("--threads <n>", `reader threads (default: none below ${MIN_THREADED_CANDIDATES.toLocaleString("en-US")} candidates, else two per core, at most 8, one per core into embedded PGlite; 0 reads in the main thread)`, parseIntOption)
    .option("--json", "print the summary as JSON")
    .action(async (p: string, o: { run?: string; format?: string; threads?: number; json?: boolean }) => {
      if (o.format !== undefined && !(INGEST_FORMATS as readonly string[]).includes(o.format)) {
        throw new CliError(`unknown --format ${o.format}; one of ${INGEST_FORMATS.join(", ")}`);
      }
      await withDatabase(async ({ db }) => {
        const progress = createProgress("ingest");
        const s = await ingestPath(db, p, {
          runName: o.run,
          format: o.format as IngestFormat | undefined,
          threads: o.threads,
          onProgress: ({ done, total }) => progress.update(done, total),
        }).finally(() => progress.stop());
        if (o.json) {
          process.stdout.write(`${JSON.stringify(s)}\n`);
          return;
        }
        const secs = (s.durationMs / 1000).toFixed(1);
        printWarnings(s.warnings);
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

/** Problems that did not stop the import, on stderr so a script's stdout stays the summary. */
function printWarnings(warnings: IngestIssue[]): void {
  if (warnings.length === 0) return;
  const shown = warnings.slice(0, 20).map((w) => `  ${formatIssue(w)}`);
  const more = warnings.length > 20 ? [`  … and ${warnings.length - 20} more (--json lists them all)`] : [];
  process.stderr.write(`${warnings.length} warning${warnings.length === 1 ? "" : "s"} (imported anyway):\n${[...shown, ...more].join("\n")}\n`);
}
