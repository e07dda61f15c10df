import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { DatabaseLockedError, openDatabase } from "./client";

test("a second process opening the same embedded database gets a clear error", async () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rst-lock-")), "pglite");
  const held = await openDatabase({ pgliteDir: dir });
  try {
    const child = spawnSync(process.execPath, ["bin/rst-curator.js", "migrate"], {
      env: { ...process.env, PGLITE_DIR: dir, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(child.status).toBe(3);
    expect(child.stderr).toContain(`is in use by process ${process.pid}`);
    await expect(openDatabase({ pgliteDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
  } finally {
    await held.close();
  }
  // Released on close: the next opener gets in, and the data survived.
  const again = await openDatabase({ pgliteDir: dir });
  await again.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});
