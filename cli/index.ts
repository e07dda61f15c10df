// rst-curator: the command-line companion. Each command is a thin shell over lib/ and db/.
import { Command } from "commander";
import { registerCheck } from "./commands/check";
import { registerExport } from "./commands/export";
import { registerGenerate } from "./commands/generate";
import { registerIngest } from "./commands/ingest";
import { registerLineage } from "./commands/lineage";
import { registerMigrate } from "./commands/migrate";
import { registerPrepare } from "./commands/prepare";
import { registerStats } from "./commands/stats";
import { registerToken } from "./commands/token";
import { registerUser } from "./commands/user";
import { CliError } from "./errors";

const program = new Command()
  .name("rst-curator")
  .description("Curate recursively synthesized terminal tasks (see README.md)")
  .showHelpAfterError();

registerGenerate(program);
registerIngest(program);
registerStats(program);
registerCheck(program);
registerLineage(program);
registerExport(program);
registerMigrate(program);
registerPrepare(program);
registerUser(program);
registerToken(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CliError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  process.stderr.write(`error: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
}
