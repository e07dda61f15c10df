import type { Command } from "commander";
import { createUser, findUserByEmail, listUsers, setUserActive, setUserRole, UserChangeError } from "@/db/queries/users";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { generatePassword } from "@/lib/auth/password";
import { ROLES, type Role } from "@/lib/domain";
import { CliError } from "../errors";
import { readStdin } from "../stdin";
import { withDatabase } from "../with-db";

export function parseRole(raw: string): Role {
  if (!(ROLES as readonly string[]).includes(raw)) throw new CliError(`unknown role "${raw}": use ${ROLES.join(", ")}`);
  return raw as Role;
}

async function userId(db: Parameters<typeof findUserByEmail>[0], email: string): Promise<string> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CliError(`nobody has the email ${email}`);
  return user.id;
}

/** Our refusals (last admin, taken email) are the person's to read, not a stack trace. */
async function changing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UserChangeError) throw new CliError(err.message);
    throw err;
  }
}

export function registerUser(program: Command): void {
  const user = program.command("user").description("people who sign in to the dashboard (runs with admin rights on this machine)");

  user
    .command("add <email>")
    .description("create a person; prints a one-time password, or takes one from stdin with --password-stdin")
    .requiredOption("--role <role>", `one of ${ROLES.join(", ")}`)
    .option("--name <name>", "display name")
    .option("--password-stdin", "read the password from stdin instead of generating one")
    .action(async (email: string, o: { role: string; name?: string; passwordStdin?: boolean }) => {
      const role = parseRole(o.role);
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError(`"${email}" is not an email address`);
      const given = o.passwordStdin ? (await readStdin()).replace(/\r?\n$/, "") : undefined;
      if (given !== undefined && given.length < 12) throw new CliError("the password must be at least 12 characters");
      const password = given ?? generatePassword();
      await withDatabase(async ({ db }) => {
        const created = await changing(() => createUser(db, { email, name: o.name, role, password }, CLI_ACTOR));
        process.stdout.write(`created ${created.email} (${role})\n`);
        if (given === undefined) process.stdout.write(`one-time password (shown only now): ${password}\n`);
      });
    });

  user
    .command("list")
    .description("everyone, with role and status")
    .option("--json", "machine-readable output")
    .action(async (o: { json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const rows = await listUsers(db);
        if (o.json) {
          const items = rows.map((u) => ({ email: u.email, name: u.name, role: u.role, active: u.active, last_sign_in_at: u.lastSignInAt }));
          process.stdout.write(`${JSON.stringify({ items }, null, 2)}\n`);
          return;
        }
        const width = Math.max(5, ...rows.map((u) => u.email.length));
        process.stdout.write(`${"email".padEnd(width)}  role      status       last sign-in\n`);
        for (const u of rows) {
          process.stdout.write(`${u.email.padEnd(width)}  ${u.role.padEnd(8)}  ${(u.active ? "active" : "deactivated").padEnd(11)}  ${u.lastSignInAt ?? "never"}\n`);
        }
      });
    });

  user
    .command("role <email> <role>")
    .description("change someone's role")
    .action(async (email: string, raw: string) => {
      const role = parseRole(raw);
      await withDatabase(async ({ db }) => {
        await changing(async () => setUserRole(db, await userId(db, email), role, CLI_ACTOR));
        process.stdout.write(`${email} is now ${role}\n`);
      });
    });

  for (const [name, active] of [["deactivate", false], ["activate", true]] as const) {
    user
      .command(`${name} <email>`)
      .description(active ? "let a deactivated person sign in again" : "stop someone from signing in; ends their sessions")
      .action(async (email: string) => {
        await withDatabase(async ({ db }) => {
          await changing(async () => setUserActive(db, await userId(db, email), active, CLI_ACTOR));
          process.stdout.write(`${email} ${active ? "activated" : "deactivated"}\n`);
        });
      });
  }
}
