import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { Db } from "@/db/client";
import { listRuns } from "@/db/queries/runs";
import { ensureFirstAdmin } from "@/lib/auth/first-admin";
import { generateRun } from "@/lib/generate";
import { env } from "@/lib/env";
import { ingestPath } from "@/lib/ingest";
import { createProgress } from "../progress";
import { withDatabase } from "../with-db";

/** Printed once, on the start that created the account; the password is stored only as a hash. */
function printFirstAdmin(email: string, password: string | null): void {
  const lines = [
    "An admin account was created for this installation.",
    `  email:    ${email}`,
    password ? `  password: ${password}` : "  password: the ADMIN_PASSWORD you set",
    password ? "This password is shown only now: sign in and change it on the Account page." : "",
    "Add people on Admin → People, or: npx rst-curator user add EMAIL --role reviewer",
  ].filter(Boolean);
  const width = Math.max(...lines.map((l) => l.length));
  const rule = "─".repeat(width + 2);
  process.stdout.write(`┌${rule}┐\n${lines.map((l) => `│ ${l.padEnd(width)} │`).join("\n")}\n└${rule}┘\n`);
}

/** First start stays one command: migrate, and on an empty database generate and import a demo run. */
export function registerPrepare(program: Command): void {
  program
    .command("prepare")
    .description("migrate the database, create the first admin when there is nobody, and import the demo run when there is no run")
    .action(async () => {
      await withDatabase(async ({ db, kind, where }) => {
        process.stdout.write(`database: ${kind} (${where}), migrations applied\n`);
        const admin = await ensureFirstAdmin(db);
        await importDemoRun(db);
        // Last, so the demo import's progress does not scroll it away.
        if (admin) printFirstAdmin(admin.email, admin.generatedPassword);
      });
    });
}

async function importDemoRun(db: Db): Promise<void> {
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
}
