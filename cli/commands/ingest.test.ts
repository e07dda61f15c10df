import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

test("ingest --threads takes a whole number of reader threads and names the option otherwise", () => {
  const child = spawnSync(process.execPath, ["bin/rst-curator.js", "ingest", "/nonexistent-run", "--threads", "two"], {
    cwd: ROOT,
    env: { ...process.env, PGLITE_DIR: "memory://", DATABASE_URL: "" },
    encoding: "utf8",
  });
  expect(child.status).not.toBe(0);
  expect(child.stderr).toContain("option '--threads <n>' argument 'two' is invalid");
  expect(child.stderr).toContain('expected a non-negative integer, got "two"');
});
