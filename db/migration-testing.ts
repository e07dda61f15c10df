// Migration tests: a database migrated up to (not including) one migration, to be filled with the
// data that migration must carry over, then migrated the rest of the way.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase, MIGRATIONS_DIR } from "./client";
import { createTestDatabase, type Backend, type TestDatabase } from "./testing";

/** A migrations folder holding every migration before `tag`, as the migrator reads one. */
function migrationsBefore(tag: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === tag);
  if (upTo < 0) throw new Error(`no migration ${tag}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-migrations-"));
  fs.mkdirSync(path.join(dir, "meta"));
  const entries = journal.entries.slice(0, upTo);
  fs.writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const e of entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

/** A new test database with every migration before `tag` applied. */
export async function databaseBefore(backend: Backend, tag: string): Promise<TestDatabase> {
  const database = await createTestDatabase(backend, { migrate: false });
  const folder = migrationsBefore(tag);
  try {
    await migrateDatabase(database, folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  return database;
}
