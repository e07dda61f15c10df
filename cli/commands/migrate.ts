import type { Command } from "commander";
import { withDatabase } from "../with-db";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply the database migrations (also done on every start)")
    .action(async () => {
      await withDatabase(async ({ kind, where }) => {
        process.stdout.write(`migrations applied (${kind}: ${where})\n`);
      });
    });
}
