// The native RST run layout (FORMATS.md §4) → one transaction.
import fs from "node:fs/promises";
import path from "node:path";
import { RunWriter } from "@/db/queries/ingest";
import type { IssueList } from "../errors";
import { readJsonFile } from "../jsonl";
import { isDirectory } from "../walk";
import { countLineage, streamRun, type ReadProgress } from "./read-run";
import { runJsonSchema } from "./schemas";

export interface NativeRunHeader {
  name: string;
  meta: Record<string, unknown>;
  createdAt: string | null;
  solverModel: string | null;
  total: number;
}

export async function readNativeHeader(dir: string, issues: IssueList, runName?: string): Promise<NativeRunHeader | null> {
  const run = await readJsonFile(path.join(dir, "run.json"), "run.json", runJsonSchema, issues);
  if (!run) return null;
  return {
    name: runName ?? run.name,
    meta: run as Record<string, unknown>,
    createdAt: run.created_at ?? null,
    solverModel: run.solver?.model ?? null,
    total: await countLineage(dir),
  };
}

/** Writes the run through `writer`; every problem found lands in `issues` (the caller rolls back). */
export async function writeNativeRun(
  dir: string,
  header: NativeRunHeader,
  writer: RunWriter,
  issues: IssueList,
  warnings: IssueList,
  opts: { onProgress?: (p: ReadProgress) => void; threads: number },
): Promise<void> {
  const { records } = await streamRun(dir, writer, issues, { solverModel: header.solverModel, total: header.total, warnings, ...opts });
  for (const [taskId, r] of records) {
    if (r.parent === null) continue;
    const parent = records.get(r.parent);
    if (!parent) issues.add("lineage.jsonl", `task ${taskId}: parent_id ${r.parent} is not in lineage.jsonl`, r.line);
    else if (parent.round !== null && r.round !== null && parent.round >= r.round) issues.add("lineage.jsonl", `task ${taskId}: round ${r.round} is not after its parent's round ${parent.round}`, r.line);
  }
  const trialsDir = path.join(dir, "trials");
  if (await isDirectory(trialsDir)) {
    for (const name of (await fs.readdir(trialsDir)).sort()) {
      if (!records.has(name)) warnings.add(`trials/${name}`, "matches no task in lineage.jsonl; its trials were not imported");
    }
  }
  if (issues.size === 0) await writer.finish();
}

export async function isNativeRun(dir: string): Promise<boolean> {
  try {
    await fs.access(path.join(dir, "run.json"));
    await fs.access(path.join(dir, "lineage.jsonl"));
    return true;
  } catch {
    return false;
  }
}
