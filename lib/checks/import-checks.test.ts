import { describe, expect, test } from "vitest";
import type { Db } from "@/db/client";
import type { TaskInput } from "@/db/queries/ingest-rows";
import { toStoredContent } from "@/lib/ingest/content";
import { ImportChecks } from "./import-checks";

function task(extId: string, parentExtId: string | null, round: number, status: "accepted" | "rejected" = "accepted"): TaskInput {
  const files = {
    "instruction.md": `Write /app/${extId}.txt.\n`,
    "solution/solve.sh": `#!/bin/bash\necho ${extId} > /app/${extId}.txt\n`,
    "tests/test_outputs.py": `def test_file():\n    assert open("/app/${extId}.txt").read()\n`,
  };
  return {
    row: { extId, parentExtId, round, status, contentHash: `hash-${extId}` },
    searchText: null,
    searchVector: null,
    files: Object.entries(files).map(([path, text]) => ({ path, stored: toStoredContent(Buffer.from(text)) })),
    evals: [],
  } as unknown as TaskInput;
}

/** Never used: a run that cannot be checked during its import writes nothing. */
const noDatabase = {} as Db;
const run = { id: 1, name: "r" };

describe("checks made during an import", () => {
  test("a child right after its parent is checked here", async () => {
    const checks = new ImportChecks();
    await checks.add(task("a", null, 0), []);
    await checks.add(task("b", "a", 1), []);
    await checks.add(task("c", "b", 2), []);
    expect(checks.complete).toBe(true);
  });

  test("a child whose parent is not at hand leaves the run to the check after the commit", async () => {
    for (const lineage of [
      // never seen
      [task("b", "a", 1)],
      // rejected: only accepted tasks are kept as parents
      [task("a", null, 0, "rejected"), task("b", "a", 1)],
      // two rounds back: let go once a later round is read
      [task("a", null, 0), task("x", null, 1), task("y", null, 2), task("b", "a", 3)],
    ]) {
      const checks = new ImportChecks();
      for (const t of lineage) await checks.add(t, []);
      expect(checks.complete).toBe(false);
      expect(await checks.write(noDatabase, run, () => 1)).toBeNull();
    }
  });

  test("a rejected child is not checked and does not stop the checks", async () => {
    const checks = new ImportChecks();
    await checks.add(task("a", null, 0), []);
    await checks.add(task("b", "missing", 1, "rejected"), []);
    await checks.add(task("c", "a", 1), []);
    expect(checks.complete).toBe(true);
  });
});
