import type { Command } from "commander";
import { createToken, listTokens, revokeToken } from "@/db/queries/tokens";
import { UserChangeError } from "@/db/queries/users";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { CliError } from "../errors";
import { withDatabase } from "../with-db";
import { parseRole } from "./user";

export function registerToken(program: Command): void {
  const token = program.command("token").description("API tokens for pipelines and scripts (Authorization: Bearer)");

  token
    .command("create")
    .description("create a token and print it (only now: the server keeps its hash)")
    .requiredOption("--name <name>", "what uses it, e.g. nightly-ingest")
    .option("--role <role>", "viewer, reviewer or admin (admin can ingest)", "viewer")
    .action(async (o: { name: string; role: string }) => {
      const role = parseRole(o.role);
      if (o.name.trim() === "") throw new CliError("--name must not be empty");
      await withDatabase(async ({ db }) => {
        const created = await createToken(db, { name: o.name, role }, CLI_ACTOR);
        process.stderr.write(`token ${created.id} "${o.name.trim()}" (${role}); shown only now:\n`);
        process.stdout.write(`${created.token}\n`);
      });
    });

  token
    .command("list")
    .description("tokens, live first")
    .action(async () => {
      await withDatabase(async ({ db }) => {
        for (const t of await listTokens(db)) {
          const status = t.revokedAt ? `revoked ${t.revokedAt}` : `last used ${t.lastUsedAt ?? "never"}`;
          process.stdout.write(`${String(t.id).padStart(4)}  ${t.prefix}…  ${t.role.padEnd(8)}  ${t.name}  (${status})\n`);
        }
      });
    });

  token
    .command("revoke <id>")
    .description("revoke a token at once")
    .action(async (raw: string) => {
      const id = Number(raw);
      if (!Number.isInteger(id) || id <= 0) throw new CliError(`"${raw}" is not a token id`);
      await withDatabase(async ({ db }) => {
        try {
          await revokeToken(db, id, CLI_ACTOR);
        } catch (err) {
          if (err instanceof UserChangeError) throw new CliError(err.message);
          throw err;
        }
        process.stdout.write(`token ${id} revoked\n`);
      });
    });
}
