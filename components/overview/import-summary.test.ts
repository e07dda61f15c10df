import { describe, expect, test } from "vitest";
import { summaryLines } from "./import-summary";

describe("summaryLines", () => {
  test("reads a native import's summary into a few plain lines, ids left out", () => {
    const lines = summaryLines({
      importId: 1,
      run: "paper",
      runId: 1,
      format: "native",
      candidates: 68239,
      durationMs: 1036469,
      unchanged: false,
      warnings: [],
      tasksNew: 68239,
      tasksChanged: 0,
      tasksUnchanged: 0,
      trialsNew: 196135,
      files: 502981,
      blobsNew: 881069,
      bytesNew: 2223025045,
      checks: { "oracle-fails": 245, "nop-passes": 245, "no-reward": 0 },
    });
    expect(lines).toEqual([
      { label: "tasks", value: "68,239: 68,239 new · 0 changed · 0 unchanged" },
      { label: "trials", value: "196,135 new" },
      { label: "files", value: "502,981" },
      { label: "stored", value: "881,069 new blobs, 2.1 GB" },
      { label: "took", value: "17m 16s" },
      { label: "checks", value: "490 flags from 2 rules" },
      { label: "warnings", value: "none" },
    ]);
  });

  test("keeps what it does not know as plain values, and drops nested ones", () => {
    expect(summaryLines({ candidates: 3, trialsNew: 1, warnings: [{ file: "x" }], jobs: 2, note: "x", extra: { a: 1 } })).toEqual([
      { label: "tasks", value: "3" },
      { label: "trials", value: "1 new" },
      { label: "warnings", value: "1" },
      { label: "jobs", value: "2" },
      { label: "note", value: "x" },
    ]);
  });
});
