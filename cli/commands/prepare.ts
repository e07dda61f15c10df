import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { listRuns } from "@/db/queries/runs";
import { generateRun } from "@/lib/generate";
import { env } from "@/lib/env";
import { ingestPath } from "@/lib/ingest";
import { createProgress } from "../progress";
import { withDatabase } from "../with-db";

/** First start stays one command: migrate, and on an empty database generate and import a demo run. */
export function registerPrepare(program: Command): void {
  program
    .command("prepare")
    .description("migrate the database and, when it holds no run yet, generate and import the demo run")
    .action(async () => {
      await withDatabase(async ({ db, kind, where }) => {
        process.stdout.write(`database: ${kind} (${where}), migrations applied\n`);
        if ((await listRuns(db)).length > 0 || env.demoTasks === 0) return;
        const out = env.demoDir;
        if (!fs.existsSync(path.join(out, "run.json"))) {
          process.stdout.write(`first start: generating a demo run of ${env.demoTasks} accepted tasks in ${out}\n`);
          const gen = createProgress("generate");
          await generateRun({ out, tasks: env.demoTasks, rounds: 15, seed: env.demoSeed, name: "demo", onProgress: (d, t) => gen.update(d, t) });
          gen.stop();
        }
        const bar = createProgress("ingest");
        const s = await ingestPath(db, out, { onProgress: ({ done, total }) => bar.update(done, total) });
        bar.stop();
        process.stdout.write(`imported demo run "${s.run}": ${s.tasksNew} tasks, ${s.trialsNew} trials (${(s.durationMs / 1000).toFixed(1)} s)\n`);
      });
    });
}
