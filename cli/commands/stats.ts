import type { Command } from "commander";
import { listRuns } from "@/db/queries/runs";
import { getRoundStats } from "@/db/queries/stats";
import { CliError } from "../errors";
import { withDatabase } from "../with-db";

const fmt = (v: number | null, digits = 0) => (v === null ? "—" : v.toFixed(digits));

export function registerStats(program: Command): void {
  program
    .command("stats")
    .description("per-round statistics of the imported runs")
    .option("--run <name>", "only this run")
    .option("--json", "machine-readable output")
    .action(async (o: { run?: string; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const names = o.run ? [o.run] : (await listRuns(db)).map((r) => r.name);
        const out = [];
        for (const name of names) {
          const stats = await getRoundStats(db, name);
          if (!stats) throw new CliError(`no run named "${name}"`);
          out.push(stats);
        }
        if (o.json) {
          const runs = out.map((s) => ({
            name: s.run,
            solver: s.solver,
            rounds: s.rounds.map((r) => ({
              round: r.round,
              accepted: r.accepted,
              rejected: r.rejected,
              median_solution_lines: r.median_solution_lines,
              median_commands: r.median_commands,
              median_distinct_tools: r.median_distinct_tools,
              median_instruction_words: r.median_instruction_words,
              median_verifier_tests: r.median_verifier_tests,
              pass_at_k: r.pass_at_k,
              mean_reward: r.mean_reward,
            })),
          }));
          process.stdout.write(`${JSON.stringify({ runs }, null, 2)}\n`);
          return;
        }
        for (const s of out) {
          process.stdout.write(`\n${s.run}  (solver ${s.solver.model ?? "?"}, pass@${s.solver.k ?? "k"})\n`);
          process.stdout.write("round  accepted rejected yield   lines  cmds  tools words tests pass@k  reward\n");
          for (const r of s.rounds) {
            const yieldPct = r.candidates > 0 ? `${((r.accepted / r.candidates) * 100).toFixed(0)}%` : "—";
            process.stdout.write(
              `${String(r.round).padStart(5)}  ${String(r.accepted).padStart(8)} ${String(r.rejected).padStart(8)} ${yieldPct.padStart(5)} ` +
                `${fmt(r.median_solution_lines).padStart(7)} ${fmt(r.median_commands).padStart(5)} ${fmt(r.median_distinct_tools).padStart(6)} ` +
                `${fmt(r.median_instruction_words).padStart(5)} ${fmt(r.median_verifier_tests).padStart(5)} ${fmt(r.pass_at_k, 3).padStart(6)} ${fmt(r.mean_reward, 3).padStart(7)}\n`,
            );
          }
        }
      });
    });
}
