// Migrating a fresh PGlite takes seconds; every test file instead loads this migrated snapshot.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "./client";

export default async function setup(project: TestProject): Promise<() => void> {
  const database = await openDatabase({ pgliteDir: "memory://" });
  if (!database.pglite) throw new Error("expected an embedded database");
  const blob = await database.pglite.dumpDataDir("none");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rst-pglite-")), "snapshot.tar");
  fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  await database.close();
  project.provide("pgliteSnapshot", file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
