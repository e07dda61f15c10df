// Installation settings kept in the database (e.g. the generated session-signing secret).
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { settings } from "../schema";

/** The stored value of `key`; the first caller stores `initial()` (concurrent callers agree). */
export async function getOrCreateSetting(db: Db, key: string, initial: () => string): Promise<string> {
  await db.insert(settings).values({ key, value: initial() }).onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  if (!row) throw new Error(`could not store the setting ${key}`);
  return row.value;
}
