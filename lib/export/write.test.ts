// The export streams without a database: a failure half-way ends the stream with that error
// (never a truncated file that looks whole), no unsafe entry name is written, nothing is left behind.
import fs from "node:fs";
import os from "node:os";
import { describe, expect, test } from "vitest";
import type { ExportFileContent, ExportTask } from "./record";
import { EXPORT_BATCH, EXPORT_FORMATS, exportName, exportStream, runDirName, type ExportSource } from "./write";

const task = (extId: string): ExportTask => ({
  extId,
  run: "r",
  parentExtId: null,
  round: 0,
  depth: 0,
  operator: null,
  status: "accepted",
  rejectionReason: null,
  repairAttempts: 0,
  createdAt: null,
  category: null,
  declaredDifficulty: null,
  contentHash: "h",
  version: 1,
  reviewState: "unreviewed",
  openFlags: 0,
  solutionLines: null,
  commands: null,
  distinctTools: null,
  instructionWords: null,
  verifierTests: null,
  evalModel: null,
  evalK: null,
  evalN: null,
  evalSuccesses: null,
  passAtK: null,
  meanReward: null,
});
const file = (p: string): ExportFileContent => ({ path: p, hash: "0".repeat(64), size: 2, encoding: "utf8", content: "hi" });

const header = (format: (typeof EXPORT_FORMATS)[number]) => ({ format, filter: "", createdAt: new Date("2026-12-04T13:05:01.123Z") });
const leftovers = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("rst-export-")).sort();

async function drain(body: AsyncIterable<Buffer>): Promise<number> {
  let n = 0;
  for await (const c of body) n += c.length;
  return n;
}

describe("export streams", () => {
  test.each(EXPORT_FORMATS)("%s: a batch that fails half-way fails the stream, and the manifest's temporary file goes", async (format) => {
    const before = leftovers();
    const ids = Array.from({ length: EXPORT_BATCH + 5 }, (_, i) => i + 1);
    let calls = 0;
    const source: ExportSource = {
      ids,
      batch: async (batch) => {
        if (++calls === 2) throw new Error("connection lost");
        return batch.map((id) => ({ task: task(`t${id}`), files: [file("instruction.md")] }));
      },
    };
    await expect(drain(exportStream(source, header(format)))).rejects.toThrow("connection lost");
    expect(leftovers()).toEqual(before);
  });

  test.each(EXPORT_FORMATS)("%s: a reader that stops early (a closed download) stops the export and leaves nothing behind", async (format) => {
    const before = leftovers();
    let served = 0;
    const big = "x".repeat(64 * 1024);
    const source: ExportSource = {
      ids: Array.from({ length: 50 * EXPORT_BATCH }, (_, i) => i + 1),
      batch: async (batch) => {
        served += batch.length;
        return batch.map((id) => ({ task: task(`t${id}`), files: [{ ...file("instruction.md"), content: `${id}${big}`, size: big.length }] }));
      },
    };
    for await (const chunk of exportStream(source, header(format))) if (chunk.length > 0) break;
    await expect.poll(leftovers).toEqual(before);
    expect(served).toBeLessThan(50 * EXPORT_BATCH);
  });

  test("an unsafe task id or file path is refused, not written", async () => {
    for (const [id, p] of [
      ["..", "instruction.md"],
      ["t1", "../../etc/passwd"],
      ["t1", "/abs"],
    ] as const) {
      const source: ExportSource = { ids: [1], batch: async () => [{ task: task(id), files: [file(p)] }] };
      await expect(drain(exportStream(source, header("harbor")))).rejects.toThrow(/not allowed/);
    }
  });

  test("names: the export's from its date, a run's made safe as one directory", () => {
    expect(exportName(new Date("2026-12-04T13:05:01.123Z"))).toBe("rst-export-20261204T130501Z");
    expect(runDirName("paper run/2")).toBe("paper_run_2");
    expect(runDirName("..")).toBe("run_2");
    expect(runDirName("")).toBe("run_0");
  });
});
