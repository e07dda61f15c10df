// Test databases: an in-memory PGlite from a pre-migrated snapshot, and — when TEST_DATABASE_URL
// is set — a uniquely named PostgreSQL database created for the test and dropped afterwards.
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { env } from "@/lib/env";
import { openDatabase, type Database } from "./client";

export type Backend = "pglite" | "postgres";

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const BACKENDS: Backend[] = env.testDatabaseUrl ? ["pglite", "postgres"] : ["pglite"];

export interface TestDatabase extends Database {
  backend: Backend;
}

/** `migrate: false` (migration tests): an empty database, nothing applied. */
export async function createTestDatabase(backend: Backend, opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = opts.migrate ?? true;
  if (backend === "pglite") {
    const snapshot = migrate ? inject("pgliteSnapshot") : null;
    const loadDataDir = snapshot ? new Blob([fs.readFileSync(snapshot)]) : undefined;
    const database = await openDatabase({ pgliteDir: "memory://", loadDataDir, migrate: migrate && !snapshot });
    return { ...database, backend };
  }
  const adminUrl = env.testDatabaseUrl;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `rst_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const { default: postgres } = await import("postgres");
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), migrate });
  return {
    ...database,
    backend,
    close: async () => {
      await database.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string | null;
  }
}
