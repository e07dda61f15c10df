// The first start stays two commands: with nobody in the database, an admin is created from
// ADMIN_EMAIL/ADMIN_PASSWORD, or with a password generated for this installation alone.
import type { Db } from "@/db/client";
import { countUsers, createUser } from "@/db/queries/users";
import { env } from "@/lib/env";
import { CLI_ACTOR } from "./actor";
import { generatePassword } from "./password";

export interface FirstAdmin {
  email: string;
  /** Present only when generated here: the caller prints it once. */
  generatedPassword: string | null;
}

/** Creates the first admin when there are no people yet; null when someone exists. */
export async function ensureFirstAdmin(db: Db, opts: { email?: string; password?: string } = {}): Promise<FirstAdmin | null> {
  if ((await countUsers(db)) > 0) return null;
  const email = opts.email ?? env.adminEmail;
  const given = opts.password ?? env.adminPassword;
  if (given !== undefined && given.length < 12) throw new Error("ADMIN_PASSWORD must be at least 12 characters");
  const password = given ?? generatePassword();
  await createUser(db, { email, name: "Admin", role: "admin", password }, CLI_ACTOR);
  return { email, generatedPassword: given === undefined ? password : null };
}
