import fs from "node:fs";
import type { Command } from "commander";
import { findRun, openAutoFlags } from "@/db/queries/checks";
import { accuracy, parseTruth } from "@/lib/checks/accuracy";
import { runChecks } from "@/lib/checks";
import { FLAG_RULES, type FlagRule } from "@/lib/domain";
import { CliError } from "../errors";
import { withDatabase } from "../with-db";

const pct = (v: number | null) => (v === null ? "—" : v.toFixed(3));

export function registerCheck(program: Command): void {
  program
    .command("check")
    .description("run the verifier-consistency rules (FORMATS.md § Checks) and write flags")
    .option("--run <name>", "only this run")
    .option("--rule <id>", `only this rule (${FLAG_RULES.join(", ")})`)
    .option("--truth <file>", "compare the flags with a ground-truth truth.jsonl: precision and recall per rule")
    .option("--threads <n>", "checker threads (default: none, the check runs in the main thread; with --reparse one per core)")
    .option("--reparse", "parse every file again instead of reading what the import stored (after a change to the readers)")
    .option("--json", "machine-readable output")
    .action(async (o: { run?: string; rule?: string; truth?: string; threads?: string; reparse?: boolean; json?: boolean }) => {
      if (o.rule !== undefined && !(FLAG_RULES as readonly string[]).includes(o.rule)) throw new CliError(`unknown rule "${o.rule}" (one of ${FLAG_RULES.join(", ")})`);
      const rules = o.rule ? [o.rule as FlagRule] : undefined;
      const threads = o.threads === undefined ? undefined : Number(o.threads);
      if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0 && threads <= 64)) throw new CliError(`--threads must be a whole number from 0 to 64, not "${o.threads}"`);
      const truth = o.truth ? parseTruthFile(o.truth) : null;
      await withDatabase(async ({ db }) => {
        const runs = await findRun(db, o.run);
        if (runs.length === 0) throw new CliError(o.run ? `no run named "${o.run}"` : "no runs imported yet");
        if (truth && runs.length > 1) throw new CliError("--truth needs one run: pass --run");
        const out = [];
        for (const run of runs) {
          const summary = await runChecks(db, {
            runId: run.id,
            rules,
            threads,
            reparse: o.reparse,
            onProgress: o.json ? undefined : (n) => process.stderr.write(`\rcheck ${run.name}: ${n} tasks`),
          });
          if (!o.json) process.stderr.write("\n");
          const acc = truth ? accuracy(await openAutoFlags(db, run.id), truth, rules ?? FLAG_RULES) : null;
          out.push({ summary, accuracy: acc });
        }
        if (o.json) {
          process.stdout.write(
            `${JSON.stringify(
              {
                runs: out.map(({ summary: s, accuracy: a }) => ({
                  name: s.run,
                  tasks: s.tasks,
                  counts: s.counts,
                  new_flags: s.inserted,
                  resolved: s.resolved,
                  reopened: s.reopened,
                  duration_ms: s.durationMs,
                  ...(a ? { accuracy: a.map((r) => ({ rule: r.rule, tp: r.truePositives, fp: r.falsePositives, fn: r.falseNegatives, precision: r.precision, recall: r.recall, false_positives: r.falsePositiveIds.slice(0, 50), false_negatives: r.falseNegativeIds.slice(0, 50) })) } : {}),
                })),
              },
              null,
              2,
            )}\n`,
          );
          return;
        }
        for (const { summary: s, accuracy: a } of out) {
          process.stdout.write(`\n${s.run}: ${s.tasks} tasks checked in ${(s.durationMs / 1000).toFixed(1)} s; ${s.inserted} new flags, ${s.resolved} resolved, ${s.reopened} reopened\n`);
          process.stdout.write("rule                       found\n");
          for (const [rule, n] of Object.entries(s.counts)) process.stdout.write(`${rule.padEnd(26)} ${String(n).padStart(6)}\n`);
          if (a) {
            process.stdout.write("\nrule                          tp    fp    fn  precision  recall\n");
            for (const r of a) {
              process.stdout.write(
                `${r.rule.padEnd(26)} ${String(r.truePositives).padStart(5)} ${String(r.falsePositives).padStart(5)} ${String(r.falseNegatives).padStart(5)}  ${pct(r.precision).padStart(9)} ${pct(r.recall).padStart(7)}\n`,
              );
            }
          }
        }
      });
    });
}

function parseTruthFile(file: string) {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return parseTruth(text, file);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}
