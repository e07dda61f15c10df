// What an export says of one task: its JSONL line (FORMATS.md §6) and its manifest entry. Plain
// data in, plain data out; the bytes of every file are the bytes that were imported.
import { isUtf8 } from "node:buffer";
import { storedBytes } from "@/lib/ingest/content";
import type { tasks } from "@/db/schema";
import type { ReviewState, TaskStatus } from "@/lib/domain";

type TaskRow = typeof tasks.$inferSelect;

/** The task columns an export reads (db/schema is their one source of truth), with its run's name. */
export type ExportTask = Pick<
  TaskRow,
  | "extId"
  | "parentExtId"
  | "round"
  | "depth"
  | "operator"
  | "status"
  | "rejectionReason"
  | "repairAttempts"
  | "createdAt"
  | "category"
  | "declaredDifficulty"
  | "contentHash"
  | "version"
  | "reviewState"
  | "openFlags"
  | "solutionLines"
  | "commands"
  | "distinctTools"
  | "instructionWords"
  | "verifierTests"
  | "evalModel"
  | "evalK"
  | "evalN"
  | "evalSuccesses"
  | "passAtK"
  | "meanReward"
> & { run: string };

export interface ExportFileContent {
  path: string;
  /** SHA-256 of the file's bytes, as imported. */
  hash: string;
  size: number;
  encoding: "utf8" | "base64";
  content: string;
}

export interface ManifestTask {
  id: string;
  run: string;
  parent_id: string | null;
  round: number | null;
  status: TaskStatus;
  review: ReviewState;
  content_hash: string;
  files: { path: string; sha256: string; size: number }[];
}

/** Everything but the files: lineage, curation, the measured metrics, the solver's results. */
export function exportMetadata(t: ExportTask): Record<string, unknown> {
  return {
    run: t.run,
    depth: t.depth,
    operator: t.operator,
    rejection_reason: t.rejectionReason,
    repair_attempts: t.repairAttempts,
    created_at: t.createdAt === null ? null : new Date(t.createdAt).toISOString(),
    category: t.category,
    declared_difficulty: t.declaredDifficulty,
    review: t.reviewState,
    version: t.version,
    open_flags: t.openFlags,
    content_hash: t.contentHash,
    metrics: {
      solution_lines: t.solutionLines,
      commands: t.commands,
      distinct_tools: t.distinctTools,
      instruction_words: t.instructionWords,
      verifier_tests: t.verifierTests,
    },
    solver: t.evalN === null ? null : { model: t.evalModel, k: t.evalK, n: t.evalN, successes: t.evalSuccesses, pass_at_k: t.passAtK, mean_reward: t.meanReward },
  };
}

/**
 * One JSONL line (without its newline): `{id, round, parent_id, status, metadata, files, sha256}`.
 * `files` maps each text file to its text; a file that is not UTF-8 goes to `files_base64`
 * instead, so `files` stays a map of strings and every byte survives.
 */
export function jsonlLine(t: ExportTask, files: readonly ExportFileContent[]): string {
  const text: Record<string, string> = {};
  const binary: Record<string, string> = {};
  const sha256: Record<string, string> = {};
  for (const f of files) {
    // Stored as base64 is not always binary: UTF-8 that holds the NUL marker itself is too.
    const bytes = storedBytes(f);
    if (f.encoding === "base64" && !isUtf8(bytes)) binary[f.path] = f.content;
    else text[f.path] = bytes.toString("utf8");
    sha256[f.path] = f.hash;
  }
  const line = {
    id: t.extId,
    round: t.round,
    parent_id: t.parentExtId,
    status: t.status,
    metadata: exportMetadata(t),
    files: text,
    ...(Object.keys(binary).length ? { files_base64: binary } : {}),
    sha256,
  };
  return JSON.stringify(line);
}

export function manifestTask(t: ExportTask, files: readonly Pick<ExportFileContent, "path" | "hash" | "size">[]): ManifestTask {
  return {
    id: t.extId,
    run: t.run,
    parent_id: t.parentExtId,
    round: t.round,
    status: t.status,
    review: t.reviewState,
    content_hash: t.contentHash,
    files: files.map((f) => ({ path: f.path, sha256: f.hash, size: f.size })),
  };
}
