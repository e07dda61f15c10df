import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { InvalidArgumentError, type Command } from "commander";
import { canonicalFilter } from "@/lib/api/bulk-schemas";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { exportFrom } from "@/lib/data/export";
import { EXPORT_FORMATS, type ExportFormat, type ExportSummary } from "@/lib/export/write";
import { formatBytes } from "@/lib/format/number";
import { CliError } from "../errors";
import { withDatabase } from "../with-db";

function parseFormat(value: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${EXPORT_FORMATS.join(", ")}`);
  return value as ExportFormat;
}

interface ExportOptions {
  out: string;
  format: ExportFormat;
  run?: string;
  filter?: string;
  json?: boolean;
}

/** `FILE` and `FILE.manifest.json` appear whole or not at all: both are written beside, then renamed. */
export function registerExport(program: Command): void {
  program
    .command("export")
    .description("write the tasks a task-table filter matches as Harbor task directories (tar.gz) or JSONL, with a manifest of SHA-256 hashes")
    .requiredOption("--out <file>", "the export to write (refused if it exists); its manifest goes to <file>.manifest.json")
    .option("--format <format>", `${EXPORT_FORMATS.join(" or ")}`, parseFormat, "harbor")
    .option("--run <name>", "only this run (the same as run=<name> in --filter)")
    .option("--filter <query>", 'the task table\'s query string, e.g. "status=accepted&flag=none&round_min=5&round_max=15"')
    .option("--json", "print the summary as JSON")
    .action(async (o: ExportOptions) => {
      const params = new URLSearchParams(o.filter ?? "");
      if (o.run !== undefined) {
        if (params.has("run") && params.get("run") !== o.run) throw new CliError(`--run ${o.run} and the filter's run=${params.get("run")} disagree`);
        params.set("run", o.run);
      }
      const canonical = canonicalFilter(params.toString());
      if (!canonical.ok) throw new CliError(`--filter: ${canonical.message}${canonical.details ? ` ${JSON.stringify(canonical.details)}` : ""}`);
      const out = path.resolve(o.out);
      const manifestOut = `${out}.manifest.json`;
      for (const f of [out, manifestOut]) if (fs.existsSync(f)) throw new CliError(`${f} exists: choose another --out or remove it`);
      const partial = `${out}.partial-${process.pid}`;
      const partialManifest = `${manifestOut}.partial-${process.pid}`;
      const started = Date.now();
      let summary: ExportSummary | null = null;
      await withDatabase(async ({ db }) => {
        const exp = await exportFrom(db, CLI_ACTOR, { filter: canonical.filter, search: canonical.search, format: o.format }, async (manifestPath, s) => {
          fs.copyFileSync(manifestPath, partialManifest);
          fs.chmodSync(partialManifest, 0o644);
          summary = s;
        });
        try {
          await pipeline(Readable.from(exp.body), fs.createWriteStream(partial, { flags: "wx" }));
          if (!summary) throw new Error("the export ended without its manifest");
          fs.renameSync(partialManifest, manifestOut);
          fs.renameSync(partial, out);
        } finally {
          fs.rmSync(partial, { force: true });
          fs.rmSync(partialManifest, { force: true });
        }
      });
      const s = summary as ExportSummary | null;
      if (!s) return;
      const seconds = (Date.now() - started) / 1000;
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ out, manifest: manifestOut, format: o.format, filter: canonical.search, tasks: s.tasks, files: s.files, bytes: s.bytes, seconds })}\n`);
        return;
      }
      process.stdout.write(
        `exported ${s.tasks} tasks (${s.files} files, ${formatBytes(s.bytes)}) as ${o.format} to ${out} in ${seconds.toFixed(1)} s\n` +
          `filter: ${canonical.search || "(none: every task of every run)"}\nmanifest: ${manifestOut}\n`,
      );
    });
}
