// Opens the configured database for one command and always closes it (PGlite keeps Node alive).
import { DatabaseLockedError, openDatabase, type Database } from "@/db/client";
import { IngestError } from "@/lib/ingest/errors";
import { CliError } from "./errors";

export async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  let database: Database;
  try {
    database = await openDatabase();
  } catch (err) {
    if (err instanceof DatabaseLockedError) throw new CliError(err.message, 3);
    throw err;
  }
  try {
    return await fn(database);
  } catch (err) {
    if (err instanceof IngestError) throw new CliError(err.message, 2);
    throw err;
  } finally {
    await database.close();
  }
}
